import type { Tool } from '../tool.js';
import { bashOutputTool, bashTool, killShellTool } from './bash.js';
import { editTool } from './edit.js';
import { globTool } from './glob.js';
import { grepTool } from './grep.js';
import { lsTool } from './ls.js';
import { readTool } from './read.js';
import { writeTool } from './write.js';

/** The sandbox's tool set, fixed at startup, in the order tools/list shows them. */
export const TOOLS: readonly Tool[] = [
  readTool,
  writeTool,
  editTool,
  lsTool,
  globTool,
  grepTool,
  bashTool,
  bashOutputTool,
  killShellTool,
];
