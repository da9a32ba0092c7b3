// Writes packages/dashboard-web/src/api-types.ts from the dashboard's OpenAPI document.
import { writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { API_TYPES_FILE, apiTypesSource } from './api-types.js';

writeFileSync(API_TYPES_FILE, await apiTypesSource());
console.log(`wrote ${relative(resolve(import.meta.dirname, '..'), API_TYPES_FILE)}`);
