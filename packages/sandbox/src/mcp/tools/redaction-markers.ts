import { closeSync, constants, fstatSync, readFileSync } from 'node:fs';
import { hasMarker, restoreEdit, restoreMarkers } from '@paddock/common/scrub';
import { ToolFailure, type ToolContext } from '../tool.js';
import { EDIT_MAX_FILE_BYTES } from './limits.js';

/**
 * Edit and Write work on what the agent saw: the redaction markers in what it sends back are
 * mapped to the real text of the file as it is now (@paddock/common/scrub), and a marker that cannot be
 * mapped refuses the call with the reason, before anything is written.
 */

/** A sentence for the tool descriptions: what the agent sees and what happens to it. */
export const REDACTION_NOTE =
  'Values that look like secrets are shown redacted as [REDACTED:<kind>]; such a marker written ' +
  'back where the file holds the secret keeps the real value, and one that cannot be mapped to ' +
  'a hidden value of the file is refused.';

/** Read-only, never blocking on a FIFO, never a symlink (openInside adds O_NOFOLLOW). */
const OPEN_FOR_READING = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;

/** Write's content with its markers mapped to the real values of the file it replaces. */
export function restoreWriteContent(
  ctx: ToolContext,
  realPath: string,
  display: string,
  content: string,
  exists: boolean,
): string {
  if (ctx.scrubView === undefined || !hasMarker(content)) return content;
  const segments = exists ? ctx.scrubView(currentText(ctx, realPath, display)) : undefined;
  const restored = restoreMarkers(content, segments, 'content', display);
  if (!restored.ok) throw new ToolFailure(restored.reason);
  return restored.text;
}

/**
 * Edit's strings with their markers mapped to the file's real text (`content`, what Edit read).
 * `crlf`: the file's lines end with \r\n, and old_string's \n may stand for them.
 */
export function restoreEditStrings(
  ctx: ToolContext,
  content: string,
  display: string,
  oldString: string,
  newString: string,
  crlf: boolean,
): { oldString: string; newString: string } {
  if (ctx.scrubView === undefined || !(hasMarker(oldString) || hasMarker(newString))) {
    return { oldString, newString };
  }
  const segments = ctx.scrubView(content);
  let restored = restoreEdit(segments, oldString, newString, display);
  if (restored.ok && restored.oldString === oldString && crlf && oldString.includes('\n')) {
    // Not found as sent: as Edit does, try it with the file's line endings.
    const withCrlf = oldString.replace(/\r?\n/g, '\r\n');
    const again = restoreEdit(segments, withCrlf, newString, display);
    if (!again.ok || again.oldString !== withCrlf) restored = again;
  }
  if (!restored.ok) throw new ToolFailure(restored.reason);
  return { oldString: restored.oldString, newString: restored.newString };
}

/** The file's text now, to map markers against; bounded like Edit's. */
function currentText(ctx: ToolContext, realPath: string, display: string): string {
  const fd = ctx.workspace.openInside(realPath, OPEN_FOR_READING);
  try {
    if (fstatSync(fd).size > EDIT_MAX_FILE_BYTES) {
      throw new ToolFailure(
        `the content holds redaction markers and ${display} is larger than ` +
          `${EDIT_MAX_FILE_BYTES / 1024 / 1024} MiB, too large to map them to its hidden values; ` +
          'nothing was written',
      );
    }
    try {
      return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(readFileSync(fd));
    } catch {
      throw new ToolFailure(
        `the content holds redaction markers and ${display} is not valid UTF-8 text, so they ` +
          'cannot be mapped to its hidden values; nothing was written',
      );
    }
  } finally {
    closeSync(fd);
  }
}
