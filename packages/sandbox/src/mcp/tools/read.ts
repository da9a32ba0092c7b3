import { isUtf8 } from 'node:buffer';
import { closeSync, constants, fstatSync, readSync } from 'node:fs';
import { z } from 'zod';
import { defineTool, ToolFailure } from '../tool.js';
import { looksBinary } from './binary.js';
import { recordStamp } from './freshness.js';
import { fsFailure } from './fs-failure.js';
import {
  BINARY_SNIFF_BYTES,
  READ_CHUNK_BYTES,
  READ_DEFAULT_LIMIT,
  READ_MAX_BYTES,
  READ_MAX_LINE_CHARS,
} from './limits.js';
import { capLine, numberedLine } from './numbered-lines.js';
import { REDACTION_NOTE } from './redaction-markers.js';

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
/** Bytes of one line kept for display: enough for READ_MAX_LINE_CHARS of 4-byte characters. */
const LINE_KEEP_BYTES = READ_MAX_LINE_CHARS * 4;

export const readTool = defineTool({
  name: 'Read',
  description:
    'Reads a text file of the workspace and returns its lines numbered like `cat -n`: each line is ' +
    '"<line number>\\t<text>", numbers starting at 1. Shows up to ' +
    `${READ_DEFAULT_LIMIT} lines from \`offset\` (default: the first line); use offset and limit ` +
    'to page through a long file, as the end of a cut result says. Lines longer than ' +
    `${READ_MAX_LINE_CHARS} characters and results over ${READ_MAX_BYTES / 1024} KiB are cut ` +
    'with a marker. Binary files are refused; use LS for directories. A file must be read ' +
    'before Write overwrites it or Edit changes it. ' +
    REDACTION_NOTE,
  input: z.object({
    file_path: z
      .string()
      .describe(
        'The file to read: relative to the workspace root (e.g. "src/index.ts"), or absolute inside it.',
      ),
    offset: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('The 1-based line number to start at. Default 1, the start of the file.'),
    limit: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe(`The most lines to return. Default ${READ_DEFAULT_LIMIT}.`),
  }),
  async run({ file_path, offset = 1, limit = READ_DEFAULT_LIMIT }, ctx) {
    // Synchronous system calls on purpose: a read is a handful of bounded calls (at most
    // READ_CHUNK_BYTES each) on the workspace's local disk, and thread-pool round trips would cost
    // more than the calls themselves (see docs/decisions/0006-sandbox-mcp-server.md).
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever.
    const flags = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;
    // A path without symlinks opens as written; any other is resolved first, as openInside needs.
    const direct = ctx.workspace.openAsWritten(file_path, flags);
    const realPath = direct?.realPath ?? (await ctx.workspace.resolve(file_path));
    const display = ctx.workspace.relative(realPath);
    let fd: number;
    if (direct) fd = direct.fd;
    else {
      try {
        // openInside: no symlink followed on the way, and the descriptor checked to be realPath.
        fd = ctx.workspace.openInside(realPath, flags);
      } catch (err) {
        throw fsFailure(err, display);
      }
    }
    try {
      const stats = fstatSync(fd);
      if (stats.isDirectory()) {
        throw new ToolFailure(`${display} is a directory; use LS to list it`);
      }
      if (!stats.isFile()) throw new ToolFailure(`${display} is not a regular file`);
      if (stats.size === 0) {
        recordStamp(ctx.session, realPath, stats);
        return `(file is empty: ${display})`;
      }
      const page = readLines(fd, stats.size, offset, limit, display);
      recordStamp(ctx.session, realPath, stats);

      if (page.lines.length === 0) {
        const total = page.totalLines;
        return `${display} has ${total} line${total === 1 ? '' : 's'}; offset ${offset} is past the end`;
      }
      const last = offset + page.lines.length - 1;
      let text = page.lines.join('\n');
      if (page.stop === 'bytes') {
        text +=
          `\n… [output truncated at ${READ_MAX_BYTES / 1024} KiB after line ${last}; ` +
          `continue with offset=${last + 1}]`;
      } else if (page.stop === 'limit') {
        text += `\n… [more lines follow; continue with offset=${last + 1}]`;
      }
      return text;
    } finally {
      closeSync(fd);
    }
  },
});

export interface Page {
  /** The numbered, capped lines shown. */
  lines: string[];
  /** Why lines were left out after the last one shown; false when the file ended. */
  stop: 'limit' | 'bytes' | false;
  /** Lines in the file, known only when it was read to the end. */
  totalLines: number;
}

/**
 * Reads the file once, in chunks, from the start to the last line asked for (and not beyond): the
 * lines before `offset` are only counted, and a long line keeps only the bytes it can show.
 */
export function readLines(
  fd: number,
  size: number,
  offset: number,
  limit: number,
  display: string,
  /** Whether a small file of valid UTF-8 is cut from its decoded text (pageOfText). */
  wholeText = true,
): Page {
  // Sized to the file when it is small (one byte more, so one read also shows the end).
  const buffer = Buffer.allocUnsafe(Math.min(READ_CHUNK_BYTES, size + 1));
  const end = offset + limit;
  const lines: string[] = [];
  let outputBytes = 0;
  let lineNo = 1;
  // The current line: its kept bytes, characters past them, whether its last byte is \r.
  let parts: Buffer[] = [];
  let keptBytes = 0;
  let droppedChars = 0;
  let endsWithCR = false;
  let lineOpen = false;
  let position = 0;

  const take = (chunk: Buffer, from: number, to: number): void => {
    if (to <= from) return;
    endsWithCR = chunk[to - 1] === CARRIAGE_RETURN;
    const keep = Math.min(to - from, LINE_KEEP_BYTES - keptBytes);
    if (keep > 0) {
      parts.push(Buffer.from(chunk.subarray(from, from + keep)));
      keptBytes += keep;
    }
    // Past the kept bytes only characters are counted: every byte that does not continue one.
    for (let i = from + Math.max(keep, 0); i < to; i++) {
      if (((chunk[i] ?? 0) & 0xc0) !== 0x80) droppedChars++;
    }
  };
  // Adds the finished line; false when it would pass the byte cap.
  const emit = (): boolean => {
    let kept = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
    let dropped = droppedChars;
    if (endsWithCR) {
      if (dropped > 0) dropped--;
      else kept = kept.subarray(0, kept.length - 1);
    }
    const line = numberedLine(lineNo, capLine(kept.toString('utf8'), dropped));
    const size = Buffer.byteLength(line) + 1;
    if (outputBytes + size > READ_MAX_BYTES) return false;
    outputBytes += size;
    lines.push(line);
    return true;
  };
  const startLine = (): void => {
    parts = [];
    keptBytes = 0;
    droppedChars = 0;
    endsWithCR = false;
    lineOpen = false;
  };

  for (;;) {
    const bytesRead = readSync(fd, buffer, 0, buffer.length, position);
    if (bytesRead === 0) break;
    const chunk = buffer.subarray(0, bytesRead);
    if (position === 0 && looksBinary(chunk.subarray(0, BINARY_SNIFF_BYTES))) {
      throw new ToolFailure(
        `${display} looks like a binary file; Read shows text files only (UTF-8 text)`,
      );
    }
    position += bytesRead;
    // A short read that reaches the size fstat gave is the end: no extra call to learn it.
    const atEnd = bytesRead < buffer.length && position >= size;
    if (wholeText && position === bytesRead && atEnd && isUtf8(chunk)) {
      // The whole file in one read, valid UTF-8 (most files): its lines are cut from the decoded
      // text, the same lines as below without a copy and a decoding per line.
      const afterEnd = position;
      return pageOfText(chunk.toString('utf8'), offset, limit, () => {
        return readSync(fd, buffer, 0, 1, afterEnd) > 0;
      });
    }
    let pos = 0;
    while (pos < bytesRead) {
      const newline = chunk.indexOf(NEWLINE, pos);
      const lineEnd = newline === -1 ? bytesRead : newline;
      if (lineNo >= offset) take(chunk, pos, lineEnd);
      if (newline === -1) {
        lineOpen = true;
        break;
      }
      if (lineNo >= offset && !emit()) return { lines, stop: 'bytes', totalLines: 0 };
      lineNo++;
      pos = newline + 1;
      startLine();
      if (lineNo >= end) {
        // Whether anything follows decides between "more lines follow" and the plain end.
        const more = pos < bytesRead || position < size || readSync(fd, buffer, 0, 1, position) > 0;
        return { lines, stop: more ? 'limit' : false, totalLines: 0 };
      }
    }
    if (atEnd) break;
  }
  // The last line has no newline after it.
  if (lineOpen) {
    if (lineNo >= offset && !emit()) return { lines, stop: 'bytes', totalLines: 0 };
    return { lines, stop: false, totalLines: lineNo };
  }
  return { lines, stop: false, totalLines: lineNo - 1 };
}

/**
 * What readLines makes of a whole file that is valid UTF-8, from its decoded text: the same lines
 * (a carriage return before the newline dropped, long lines cut by capLine, which counts what it
 * cuts exactly as readLines counts the bytes it skips), the same byte cap and the same end.
 * `moreAfter` tells whether the file has grown past the text since it was read.
 */
export function pageOfText(
  text: string,
  offset: number,
  limit: number,
  moreAfter: () => boolean,
): Page {
  const end = offset + limit;
  const lines: string[] = [];
  let outputBytes = 0;
  // Characters are bytes in ASCII text, and numbers and tabs are ASCII.
  const ascii = Buffer.byteLength(text) === text.length;
  const emit = (from: number, to: number): boolean => {
    const last = to > from && text.charCodeAt(to - 1) === CARRIAGE_RETURN ? to - 1 : to;
    const raw = text.slice(from, last);
    const shown = capLine(raw);
    const line = numberedLine(lineNo, shown);
    const size = (ascii && shown === raw ? line.length : Buffer.byteLength(line)) + 1;
    if (outputBytes + size > READ_MAX_BYTES) return false;
    outputBytes += size;
    lines.push(line);
    return true;
  };
  let lineNo = 1;
  let pos = 0;
  for (;;) {
    const newline = text.indexOf('\n', pos);
    if (newline === -1) {
      // The last line has no newline after it (or the text ended with one).
      if (pos === text.length) return { lines, stop: false, totalLines: lineNo - 1 };
      if (lineNo >= offset && !emit(pos, text.length)) {
        return { lines, stop: 'bytes', totalLines: 0 };
      }
      return { lines, stop: false, totalLines: lineNo };
    }
    if (lineNo >= offset && !emit(pos, newline)) return { lines, stop: 'bytes', totalLines: 0 };
    lineNo++;
    pos = newline + 1;
    if (lineNo >= end) {
      return { lines, stop: pos < text.length || moreAfter() ? 'limit' : false, totalLines: 0 };
    }
  }
}
