// The web interface's API types, made from the dashboard's OpenAPI document of every mode with
// openapi-typescript. Written by generate-api-types.ts; a test fails when the file is stale.
import { join, resolve } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { format, resolveConfig } from 'prettier';
import { everyModeDocument } from '../packages/dashboard/src/http/openapi-every-mode.js';

export const API_TYPES_FILE = join(
  resolve(import.meta.dirname, '..'),
  'packages/dashboard-web/src/api-types.ts',
);

const HEADER = `/**
 * The dashboard's HTTP API as TypeScript types: GENERATED from its OpenAPI document (the routes'
 * schemas) by \`npm run generate\`. Do not edit; change a route's schema and generate again.
 */
`;

/** The text of api-types.ts, formatted as the repository formats its code. */
export async function apiTypesSource(): Promise<string> {
  const document = await everyModeDocument();
  const ast = await openapiTS(document as unknown as Parameters<typeof openapiTS>[0], {
    // Object types list their fields exactly; `additionalProperties` says where more may come.
    additionalProperties: false,
  });
  const text = HEADER + '\n' + astToString(ast);
  const options = await resolveConfig(API_TYPES_FILE);
  return format(text, { ...options, filepath: API_TYPES_FILE });
}
