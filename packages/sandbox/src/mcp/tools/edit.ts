import { closeSync, constants, fstatSync, readFileSync, type Stats } from 'node:fs';
import { z } from 'zod';
import { defineTool, ToolFailure } from '../tool.js';
import { atomicWrite } from './atomic-write.js';
import { looksBinary } from './binary.js';
import { recordStamp, requireFreshRead } from './freshness.js';
import { fsFailure } from './fs-failure.js';
import {
  BINARY_SNIFF_BYTES,
  EDIT_MAX_FILE_BYTES,
  EDIT_SNIPPET_CONTEXT_LINES,
  EDIT_SNIPPET_MAX_LINES,
} from './limits.js';
import { capLine, numberedLine } from './numbered-lines.js';
import { REDACTION_NOTE, restoreEditStrings } from './redaction-markers.js';

/** Read-only, never blocking on a FIFO, never a symlink (openInside adds O_NOFOLLOW). */
const OPEN_FOR_EDITING = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;

export const editTool = defineTool({
  name: 'Edit',
  description:
    'Replaces exact text in a file of the workspace. old_string must match the file exactly ' +
    '(whitespace and indentation included) and occur exactly once, unless replace_all is true. ' +
    'The file must have been read with Read in this session and not changed since. Line endings ' +
    'follow the file: in a CRLF file, \\n in old_string and new_string means \\r\\n. The write is ' +
    'atomic and keeps the file’s permissions. The result shows the edited lines numbered like Read. ' +
    REDACTION_NOTE,
  input: z.object({
    file_path: z
      .string()
      .describe(
        'The file to edit: relative to the workspace root (e.g. "src/index.ts"), or absolute inside it.',
      ),
    old_string: z
      .string()
      .describe(
        'The exact text to replace, without Read’s line-number prefixes. Not empty. Include enough ' +
          'surrounding lines to make it unique in the file.',
      ),
    new_string: z
      .string()
      .describe('The text to put in its place; must differ from old_string. May be empty.'),
    replace_all: z
      .boolean()
      .optional()
      .describe(
        'Replace every occurrence of old_string instead of requiring exactly one. Default false.',
      ),
  }),
  async run({ file_path, old_string, new_string, replace_all = false }, ctx) {
    if (old_string === '') {
      throw new ToolFailure('old_string is empty; use Write to create or replace a whole file');
    }
    if (old_string === new_string) {
      throw new ToolFailure(
        'old_string and new_string are the same; the edit would change nothing',
      );
    }
    const realPath = await ctx.workspace.resolve(file_path);
    const display = ctx.workspace.relative(realPath);
    // One descriptor, opened without following symlinks, gives both the stats and the bytes.
    let fd: number;
    try {
      fd = ctx.workspace.openInside(realPath, OPEN_FOR_EDITING);
    } catch (err) {
      throw fsFailure(err, display);
    }
    let stats: Stats;
    let bytes: Buffer;
    try {
      stats = fstatSync(fd);
      if (stats.isDirectory()) throw new ToolFailure(`${display} is a directory`);
      if (!stats.isFile()) throw new ToolFailure(`${display} is not a regular file`);
      requireFreshRead(ctx.session, realPath, display, stats, 'editing');
      if (stats.size > EDIT_MAX_FILE_BYTES) {
        throw new ToolFailure(
          `${display} is larger than ${EDIT_MAX_FILE_BYTES / 1024 / 1024} MiB; Edit cannot change it`,
        );
      }
      try {
        bytes = readFileSync(fd);
      } catch (err) {
        throw fsFailure(err, display);
      }
    } finally {
      closeSync(fd);
    }
    if (bytes.length !== stats.size) {
      throw new ToolFailure(`${display} has changed since it was read; read it again`);
    }
    if (looksBinary(bytes.subarray(0, BINARY_SNIFF_BYTES))) {
      throw new ToolFailure(`${display} looks like a binary file; Edit changes text files only`);
    }
    let content: string;
    try {
      // fatal: re-encoding text with invalid bytes would silently corrupt them; ignoreBOM keeps a BOM.
      content = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
    } catch {
      throw new ToolFailure(`${display} is not valid UTF-8; Edit would corrupt it`);
    }

    const crlf = usesCrlf(content);
    // Strings copied from Read may hold redaction markers: they stand for the file's real text.
    const strings = restoreEditStrings(ctx, content, display, old_string, new_string, crlf);
    let search = strings.oldString;
    let count = countOccurrences(content, search);
    if (count === 0 && crlf && search.includes('\n')) {
      search = toCrlf(search);
      count = countOccurrences(content, search);
    }
    // New lines in a CRLF file end with \r\n like the others.
    const replacement = crlf ? toCrlf(strings.newString) : strings.newString;
    if (count === 0) {
      throw new ToolFailure(
        `old_string was not found in ${display}; it must match the file exactly, including ` +
          'whitespace and indentation (Read the file to copy the exact text)',
      );
    }
    if (count > 1 && !replace_all) {
      throw new ToolFailure(
        `old_string occurs ${count} times in ${display}; add surrounding lines to old_string so it ` +
          'matches exactly one place, or set replace_all to true to replace every occurrence',
      );
    }
    const first = content.indexOf(search);
    const updated = replace_all
      ? content.split(search).join(replacement)
      : content.slice(0, first) + replacement + content.slice(first + search.length);

    let written: Stats;
    try {
      written = atomicWrite(ctx.workspace, realPath, updated, { mode: stats.mode & 0o7777 });
    } catch (err) {
      throw fsFailure(err, display);
    }
    recordStamp(ctx.session, realPath, written);
    const summary = `Edited ${display}: ${count} replacement${count === 1 ? '' : 's'}`;
    return `${summary}\n${snippet(updated, first, replacement.length)}`;
  },
});

/** A file uses CRLF when its first line ends with \r\n. */
function usesCrlf(text: string): boolean {
  const newline = text.indexOf('\n');
  return newline > 0 && text[newline - 1] === '\r';
}

function toCrlf(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}

function countOccurrences(text: string, search: string): number {
  let count = 0;
  for (let at = text.indexOf(search); at !== -1; at = text.indexOf(search, at + search.length)) {
    count++;
  }
  return count;
}

/**
 * The lines around the first replaced region (`length` characters at `index`), numbered like Read,
 * so the agent sees the result without another Read.
 */
function snippet(text: string, index: number, length: number): string {
  let firstLine = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < index; at = text.indexOf('\n', at + 1)) {
    firstLine++;
  }
  // Back up to the start of the context before the region.
  let start = lineStart(text, index);
  let number = firstLine;
  for (let i = 0; i < EDIT_SNIPPET_CONTEXT_LINES && start > 0; i++) {
    start = lineStart(text, start - 1);
    number--;
  }
  const regionEnd = index + length;
  const lines: string[] = [];
  let after = -1;
  while (lines.length < EDIT_SNIPPET_MAX_LINES && start <= text.length) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    if (start === text.length && newline === -1 && lines.length > 0) break;
    lines.push(numberedLine(number, capLine(text.slice(start, end).replace(/\r$/, ''))));
    if (end >= regionEnd && after === -1) after = 0;
    else if (after !== -1) after++;
    if (after >= EDIT_SNIPPET_CONTEXT_LINES || newline === -1) break;
    start = newline + 1;
    number++;
  }
  return lines.join('\n');
}

/** Where the line holding position `at` starts. */
function lineStart(text: string, at: number): number {
  // lastIndexOf treats a negative start as 0, which would find a newline at 0 itself.
  return at <= 0 ? 0 : text.lastIndexOf('\n', at - 1) + 1;
}
