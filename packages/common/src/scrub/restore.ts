import type { ScrubSegment } from './scrubber.js';

/**
 * Edit and Write work on what the agent saw. A tool result shows a secret as `[REDACTED:<kind>]`;
 * an agent that writes such text back (a whole file with Write, strings copied from Read into
 * Edit) would put the marker on disk in place of the real value. These pure functions map the
 * markers in what the agent sends back to the real text behind them in the file as it is now, or
 * say why they cannot: a marker that stands for nothing there, or for one of several different
 * values with nothing on its line to tell which.
 */

/** A redaction marker, as the scrubber writes it. */
const MARKER = /\[REDACTED:[\w.-]+\]/;

/** Every marker in the text, in order. */
function markersIn(text: string): RegExpExecArray[] {
  return [...text.matchAll(new RegExp(MARKER.source, 'g'))];
}

/** The outcome of mapping: the real text, or the sentence that says why it cannot be had. */
export type Restored = { ok: true; text: string } | { ok: false; reason: string };

/** Whether the text holds a redaction marker at all (the common case is no: nothing to map). */
export function hasMarker(text: string): boolean {
  return MARKER.test(text);
}

/** A marker as the file's view shows it, with its place and what stands behind it. */
export interface MarkerInView {
  marker: string;
  real: string;
  /** The whole line it is on, as shown, and the text before and after it on that line. */
  line: string;
  before: string;
  after: string;
}

/** Every marker the view shows (redactions, and markers the file itself holds literally). */
function shownMarkers(segments: readonly ScrubSegment[]): MarkerInView[] {
  const text = segments.map((s) => s.shown).join('');
  const found: MarkerInView[] = [];
  let offset = 0;
  for (const segment of segments) {
    if (segment.kind !== undefined) {
      found.push(describe(text, offset, segment.shown, segment.real));
    } else {
      for (const m of markersIn(segment.shown)) {
        found.push(describe(text, offset + m.index, m[0], m[0]));
      }
    }
    offset += segment.shown.length;
  }
  return found;
}

function describe(text: string, at: number, marker: string, real: string): MarkerInView {
  const start = text.lastIndexOf('\n', at - 1) + 1;
  const newline = text.indexOf('\n', at + marker.length);
  const end = newline === -1 ? text.length : newline;
  return {
    marker,
    real,
    line: text.slice(start, end),
    before: text.slice(start, at),
    after: text.slice(at + marker.length, end),
  };
}

/** The one value all candidates stand for, or undefined when they differ (or there are none). */
function single(candidates: readonly MarkerInView[]): string | undefined {
  const values = new Set(candidates.map((c) => c.real));
  return values.size === 1 ? [...values][0] : undefined;
}

/**
 * The real value of the marker at `at` in `text` (which the agent sent): the only value its kind
 * stands for in the file, else the value of the marker in the same place of an identical line,
 * else the one with the same text before it on its line, else the one with the same text after.
 */
function resolve(
  text: string,
  at: number,
  marker: string,
  shown: readonly MarkerInView[],
): string | undefined {
  const candidates = shown.filter((s) => s.marker === marker);
  const only = single(candidates);
  if (only !== undefined || candidates.length <= 1) return only;
  const here = describe(text, at, marker, '');
  const narrowings: Array<(c: MarkerInView) => boolean> = [
    (c) => c.line === here.line && c.before === here.before,
    (c) => c.before === here.before,
    (c) => c.after === here.after,
  ];
  for (const keep of narrowings) {
    const value = single(candidates.filter(keep));
    if (value !== undefined) return value;
  }
  return undefined;
}

/**
 * The value from the markers an Edit replaces: the n-th marker of a kind in new_string stands for
 * the n-th of that kind in the replaced text when both hold as many, else for their one value.
 */
function fromPreferred(
  text: string,
  marker: string,
  nth: number,
  preferred: readonly MarkerInView[],
): string | undefined {
  const same = preferred.filter((p) => p.marker === marker);
  if (same.length === 0) return undefined;
  const inText = text.split(marker).length - 1;
  if (inText === same.length) return same[nth]?.real;
  return single(same);
}

/** Line number (from 1) of a position. */
function lineOf(text: string, at: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < at; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/**
 * `text` with each marker replaced by the real value it stands for in the file whose scrubbed
 * view is `segments` (undefined: there is no such file yet). `what` names the text in reasons
 * ("content", "new_string"); `preferred` are markers to look at first (an Edit's matched region).
 */
export function restoreMarkers(
  text: string,
  segments: readonly ScrubSegment[] | undefined,
  what: string,
  display: string,
  preferred: readonly MarkerInView[] = [],
): Restored {
  if (!hasMarker(text)) return { ok: true, text };
  const shown = segments === undefined ? [] : shownMarkers(segments);
  const seen = new Map<string, number>();
  let out = '';
  let copied = 0;
  for (const m of markersIn(text)) {
    const marker = m[0];
    const nth = seen.get(marker) ?? 0;
    seen.set(marker, nth + 1);
    const real =
      fromPreferred(text, marker, nth, preferred) ?? resolve(text, m.index, marker, shown);
    if (real === undefined) {
      const where = `${marker} at line ${lineOf(text, m.index)} of ${what}`;
      const count = shown.filter((s) => s.marker === marker).length;
      return {
        ok: false,
        reason:
          count === 0
            ? `${where} stands for a value the sandbox hid from you, and ${display} ` +
              `${segments === undefined ? 'does not exist yet' : 'holds no such hidden value now'}, ` +
              'so it cannot be put back; nothing was written. Write the real value, or leave it out.'
            : `${where} stands for one of ${count} hidden values of ${display} that differ, and ` +
              'its line does not tell which; nothing was written. Copy that line unchanged from ' +
              'Read, or write the real value.',
      };
    }
    out += text.slice(copied, m.index) + real;
    copied = m.index + marker.length;
  }
  return { ok: true, text: out + text.slice(copied) };
}

/** The real text behind the shown range [from, to), or undefined when it cuts through a marker. */
function realRange(
  segments: readonly ScrubSegment[],
  from: number,
  to: number,
): string | undefined {
  let real = '';
  for (const { segment, start, end } of overlapping(segments, from, to)) {
    if (segment.kind !== undefined) {
      if (start < from || end > to) return undefined; // the range cuts this marker
      real += segment.real;
    } else {
      real += segment.shown.slice(from - start, to - start);
    }
  }
  return real;
}

/** The segments that overlap the shown range [from, to), with where each lies. */
function overlapping(
  segments: readonly ScrubSegment[],
  from: number,
  to: number,
): Array<{ segment: ScrubSegment; start: number; end: number }> {
  const found: Array<{ segment: ScrubSegment; start: number; end: number }> = [];
  let offset = 0;
  for (const segment of segments) {
    const start = offset;
    offset += segment.shown.length;
    if (offset > from && start < to) found.push({ segment, start, end: offset });
  }
  return found;
}

/** An Edit's strings mapped to the file's real text, or the reason they cannot be. */
export type RestoredEdit =
  { ok: true; oldString: string; newString: string } | { ok: false; reason: string };

/**
 * An Edit whose old_string (`search`, as the agent copied it from a result) holds markers is found
 * in the file's scrubbed view; the real text behind each occurrence becomes the string to replace.
 * All occurrences must stand for the same real text (else which one is meant is unclear). The
 * markers of new_string are then mapped, those of the matched region first. With no marker in
 * either string, both are returned as they are.
 */
export function restoreEdit(
  segments: readonly ScrubSegment[],
  search: string,
  replacement: string,
  display: string,
): RestoredEdit {
  let oldString = search;
  let preferred: MarkerInView[] = [];
  if (hasMarker(search)) {
    const shownText = segments.map((s) => s.shown).join('');
    const reals = new Set<string>();
    for (
      let at = shownText.indexOf(search);
      at !== -1;
      at = shownText.indexOf(search, at + search.length)
    ) {
      const range = realRange(segments, at, at + search.length);
      if (range === undefined) {
        return {
          ok: false,
          reason:
            `old_string cuts through a redaction marker of ${display}; nothing was written. ` +
            'Include each [REDACTED:…] marker whole, as Read shows it.',
        };
      }
      reals.add(range);
      if (reals.size === 1) preferred = shownMarkers(segmentsIn(segments, at, at + search.length));
    }
    if (reals.size > 1) {
      return {
        ok: false,
        reason:
          `old_string occurs more than once in ${display}, with different hidden values behind ` +
          'its redaction markers; nothing was written. Add surrounding lines to old_string so ' +
          'that it matches one place.',
      };
    }
    if (reals.size === 1) oldString = [...reals][0]!;
  }
  const restored = restoreMarkers(replacement, segments, 'new_string', display, preferred);
  if (!restored.ok) return restored;
  return { ok: true, oldString, newString: restored.text };
}

/** The segments of the shown range [from, to) (which cuts no marker), as their own view. */
function segmentsIn(segments: readonly ScrubSegment[], from: number, to: number): ScrubSegment[] {
  return overlapping(segments, from, to).map(({ segment, start }) => {
    if (segment.kind !== undefined) return segment;
    const piece = segment.shown.slice(Math.max(0, from - start), to - start);
    return { shown: piece, real: piece };
  });
}
