// Tool arguments as the transcript keeps them: every string in them passed through the scrubber,
// so that a secret the model repeats (or the task carried) is not written down. The tool itself
// gets the arguments unscrubbed.

/** The value with each string scrubbed, keys kept, at most `depth` levels deep (deeper: dropped). */
export function scrubStrings(value: unknown, scrub: (text: string) => string, depth = 32): unknown {
  if (typeof value === 'string') return scrub(value);
  if (depth <= 0) return '[too deep]';
  if (Array.isArray(value)) return value.map((item) => scrubStrings(item, scrub, depth - 1));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        scrub(key),
        scrubStrings(item, scrub, depth - 1),
      ]),
    );
  }
  return value;
}
