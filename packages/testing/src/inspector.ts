import { join } from 'node:path';

/** The MCP Inspector's command line (`node INSPECTOR_CLI --cli <url> ...`), a devDependency. */
export const INSPECTOR_CLI = join(
  import.meta.dirname,
  '..',
  '..',
  '..',
  'node_modules',
  '@modelcontextprotocol',
  'inspector',
  'cli',
  'build',
  'cli.js',
);
