import { toolAnnotations, type ToolFacts } from '../annotations.js';
import type { Tool } from '../tool.js';
import { bashOutputTool, bashTool, killShellTool } from './bash.js';
import { editTool } from './edit.js';
import { globTool } from './glob.js';
import { grepTool } from './grep.js';
import { lsTool } from './ls.js';
import { readTool } from './read.js';
import { writeTool } from './write.js';

/**
 * The sandbox's tool set, fixed at startup, in the order tools/list shows them, with what each
 * does to the workspace (docs/sandbox/mcp.md shows the same table to people).
 */
const TOOL_TABLE: ReadonlyArray<readonly [Tool, ToolFacts]> = [
  // Read notes the file's stamp for Write and Edit: session state, nothing an agent could lose.
  [readTool, { title: 'Read file', effect: 'reads', idempotent: true, openWorld: false }],
  // Replaces a whole file; writing the same content again changes nothing more.
  [writeTool, { title: 'Write file', effect: 'destroys', idempotent: true, openWorld: false }],
  // Replaces text; a second call finds the old text gone (or replaces again with replace_all).
  [editTool, { title: 'Edit file', effect: 'destroys', idempotent: false, openWorld: false }],
  [lsTool, { title: 'List directory', effect: 'reads', idempotent: true, openWorld: false }],
  [globTool, { title: 'Find files', effect: 'reads', idempotent: true, openWorld: false }],
  [
    grepTool,
    { title: 'Search file contents', effect: 'reads', idempotent: true, openWorld: false },
  ],
  // Any command: it may delete files, reach the network and run with the sandbox's user rights.
  [bashTool, { title: 'Run command', effect: 'destroys', idempotent: false, openWorld: true }],
  // Hands over output once (the next call shows only newer output) but changes nothing.
  [
    bashOutputTool,
    { title: 'Read background output', effect: 'reads', idempotent: true, openWorld: false },
  ],
  // Stops a running command and whatever it was doing; killing it again is a no-op.
  [
    killShellTool,
    { title: 'Stop background command', effect: 'destroys', idempotent: true, openWorld: false },
  ],
];

export const TOOLS: readonly Tool[] = TOOL_TABLE.map(([tool, facts]) => ({
  ...tool,
  annotations: toolAnnotations(facts),
}));
