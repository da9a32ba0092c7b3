import { BUILTIN_PATTERNS, type ScrubPattern } from './patterns.js';

export interface ScrubberOptions {
  /** Exact values to redact wherever they appear, as kind "configured-secret". */
  secrets?: readonly string[];
  /** Patterns added by configuration, tried after the built-in ones. */
  extraPatterns?: readonly ScrubPattern[];
}

/** The kind of a configured secret's replacement. */
export const CONFIGURED_SECRET = 'configured-secret';

/** Kinds end up inside `[REDACTED:<kind>]`, so they may not hold `]` or spaces. */
const KIND = /^[A-Za-z0-9][\w.-]*$/;
const TOKEN_START = '[REDACTED:';
const TOKEN = /\[REDACTED:[\w.-]+\]/g;

/**
 * Rounds of scrubbing until nothing changes. A redaction can expose a match that the first round
 * skipped over (it resumes after each redaction); the next round finds it, and a round that finds
 * nothing proves the result is stable, so scrubbing twice gives what scrubbing once gave.
 */
const MAX_ROUNDS = 4;

/** A pattern ready to be tried at one position: sticky, with match indices. */
interface Candidate {
  kind: string;
  regex: RegExp;
  accept: ((text: string) => boolean) | undefined;
}

/** Patterns that share a trigger, in the order they are tried. */
interface Group {
  candidates: Candidate[];
  /** Position in the pass: at the same start, the earlier group is tried first. */
  order: number;
}

interface LiteralTrigger extends Group {
  literal: string;
  offset: number;
}

interface RegexTrigger extends Group {
  /** The group wrapping this alternative in the pass's joined RegExp. */
  group: string;
  /** The group holding the text between a match's start and the hit, if any. */
  startGroup: string | undefined;
}

/**
 * One scan of the text: the triggers give the positions where a match may start, and at each,
 * in order, the candidates of the trigger that found it are tried; the first accepted is redacted.
 */
interface Pass {
  literals: LiteralTrigger[];
  /** The regex triggers joined into one RegExp (flag g), or undefined when there are none. */
  regex: RegExp | undefined;
  regexTriggers: RegexTrigger[];
  /** A test cheaper than the triggers that lets the pass skip texts it cannot match. */
  mayMatch?: (text: string) => boolean;
}

interface Start {
  at: number;
  group: Group;
}

/**
 * Replaces secrets in text with `[REDACTED:<kind>]`. Everything is compiled once here, into at
 * most three kinds of pass: the configured secrets, tried only where `includes` finds one; the
 * built-in patterns, whose triggers are a few literals found with `indexOf` and one RegExp that
 * stops only at `=`, `:`, `_` or `-` and looks behind them for a secret's name or prefix, so that
 * a text without secrets costs little more than one quick scan; and the configured patterns,
 * joined into one RegExp per set of flags.
 */
export class Scrubber {
  private readonly passes: Pass[] = [];

  constructor(options: ScrubberOptions = {}) {
    const extra = options.extraPatterns ?? [];
    for (const { kind } of extra) {
      if (!KIND.test(kind)) {
        throw new Error(`scrub pattern kind "${kind}" may hold only letters, digits, _ . and -`);
      }
    }
    const secrets = [...new Set(options.secrets ?? [])].filter((secret) => secret.length > 0);
    if (secrets.length > 0) this.passes.push(secretsPass(secrets));
    this.passes.push(builtinPass());
    this.passes.push(...extraPasses(extra));
  }

  scrub(text: string): string {
    let current = text;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      let next = current;
      for (const pass of this.passes) next = runPass(pass, next);
      if (next === current) break;
      current = next;
    }
    return current;
  }

  /**
   * What `scrub` shows of `text`, with what stands behind each redaction: the shown pieces joined
   * are `scrub(text)`, the real pieces joined are `text`. Edit and Write map the redaction markers
   * an agent copied from a result back to the file's real text with it (see restore.ts).
   */
  view(text: string): ScrubSegment[] {
    let segments: ScrubSegment[] = [{ shown: text, real: text }];
    let current = text;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      let next = current;
      for (const pass of this.passes) {
        const redactions: Redaction[] = [];
        next = runPass(pass, next, redactions);
        if (redactions.length > 0) segments = splitSegments(segments, redactions);
      }
      if (next === current) break;
      current = next;
    }
    return segments;
  }
}

/** A piece of a scrubbed text: as shown, and the real text behind it (the same unless redacted). */
export interface ScrubSegment {
  shown: string;
  real: string;
  /** Set on a redaction: the kind named in its marker `[REDACTED:<kind>]`. */
  kind?: string;
}

/** One redaction of a pass: [from, to) of the pass's input replaced by a marker of `kind`. */
interface Redaction {
  from: number;
  to: number;
  kind: string;
}

/**
 * Applies a pass's redactions to the segments of its input. A redaction never overlaps a marker
 * (runPass skips those), so each lies inside one unredacted segment, which is cut around it.
 */
function splitSegments(segments: ScrubSegment[], redactions: Redaction[]): ScrubSegment[] {
  const out: ScrubSegment[] = [];
  let offset = 0;
  let next = 0;
  for (const segment of segments) {
    const end = offset + segment.shown.length;
    if (segment.kind !== undefined) {
      out.push(segment);
      offset = end;
      continue;
    }
    let copied = 0;
    for (; next < redactions.length; next++) {
      const redaction = redactions[next]!;
      if (redaction.from >= end) break;
      const from = redaction.from - offset;
      const to = redaction.to - offset;
      if (from < copied || to > segment.shown.length) {
        throw new Error('a redaction crosses a segment boundary'); // runPass makes this impossible
      }
      if (from > copied) out.push(plain(segment.shown.slice(copied, from)));
      out.push({
        shown: `${TOKEN_START}${redaction.kind}]`,
        real: segment.shown.slice(from, to),
        kind: redaction.kind,
      });
      copied = to;
    }
    if (copied < segment.shown.length) out.push(plain(segment.shown.slice(copied)));
    offset = end;
  }
  return out;
}

function plain(text: string): ScrubSegment {
  return { shown: text, real: text };
}

function candidate(kind: string, pattern: RegExp, accept?: (text: string) => boolean): Candidate {
  return { kind, regex: new RegExp(pattern.source, `${matchingFlags(pattern)}yd`), accept };
}

/** The flags that change what matches; g, y and d are the scanner's business. */
function matchingFlags(regex: RegExp): string {
  return regex.flags.replace(/[gyd]/g, '');
}

/** The configured secrets, longest first so that a secret containing another is redacted whole. */
function secretsPass(secrets: string[]): Pass {
  const sorted = [...secrets].sort((a, b) => b.length - a.length);
  const pattern = new RegExp(sorted.map(escapeRegExp).join('|'));
  return {
    ...regexPass([{ source: pattern.source, candidates: [candidate(CONFIGURED_SECRET, pattern)] }]),
    mayMatch: (text) => sorted.some((secret) => text.includes(secret)),
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
}

/** The built-in patterns, grouped under their shared triggers in the order they are listed. */
function builtinPass(): Pass {
  const literals = new Map<string, LiteralTrigger>();
  const regexes = new Map<string, { source: string; candidates: Candidate[]; order: number }>();
  BUILTIN_PATTERNS.forEach(({ kind, pattern, accept, trigger }, order) => {
    const pending = candidate(kind, pattern, accept);
    if ('literal' in trigger) {
      const key = `${trigger.offset}:${trigger.literal}`;
      const entry: LiteralTrigger = literals.get(key) ?? { ...trigger, candidates: [], order };
      entry.candidates.push(pending);
      literals.set(key, entry);
    } else {
      const entry = regexes.get(trigger.regex) ?? {
        source: trigger.regex,
        candidates: [] as Candidate[],
        order,
      };
      entry.candidates.push(pending);
      regexes.set(trigger.regex, entry);
    }
  });
  return { ...regexPass([...regexes.values()], '', true), literals: [...literals.values()] };
}

/**
 * Configured patterns are their own triggers, joined with the others that share their flags. One
 * with numbered backreferences, whose numbers joining would shift, or a set that does not compile
 * joined, is scanned on its own.
 */
function extraPasses(patterns: readonly ScrubPattern[]): Pass[] {
  const byFlags = new Map<string, ScrubPattern[]>();
  const alone: ScrubPattern[] = [];
  for (const pattern of patterns) {
    if (/\\[1-9]/.test(pattern.pattern.source)) {
      alone.push(pattern);
      continue;
    }
    const flags = matchingFlags(pattern.pattern);
    byFlags.set(flags, [...(byFlags.get(flags) ?? []), pattern]);
  }
  const asTrigger = (pattern: ScrubPattern) => ({
    source: pattern.pattern.source,
    candidates: [candidate(pattern.kind, pattern.pattern)],
  });
  const passes: Pass[] = [];
  for (const [flags, group] of byFlags) {
    try {
      passes.push(regexPass(group.map(asTrigger), flags));
    } catch {
      alone.push(...group);
    }
  }
  for (const pattern of alone) {
    passes.push(regexPass([asTrigger(pattern)], matchingFlags(pattern.pattern)));
  }
  return passes;
}

/**
 * A pass of regex triggers joined into one RegExp: each is wrapped in a group (`t<i>`) that tells
 * which one hit, and its own named groups are renamed into that group's namespace. With
 * `markedStarts`, a group named `start` means what Trigger says (built-in triggers only: in a
 * configured pattern, no group but `secret` means anything to the scrubber).
 */
function regexPass(
  triggers: ReadonlyArray<{ source: string; candidates: Candidate[]; order?: number }>,
  flags = '',
  markedStarts = false,
): Pass {
  const sources: string[] = [];
  const regexTriggers = triggers.map(({ source, candidates, order }, i): RegexTrigger => {
    const group = `t${i}`;
    const renamed = renameGroups(source, `${group}_`, flags);
    sources.push(`(?<${group}>${renamed.source})`);
    const startGroup = markedStarts && renamed.names.has('start') ? `${group}_start` : undefined;
    return { group, startGroup, candidates, order: order ?? i };
  });
  return {
    literals: [],
    regex: sources.length > 0 ? new RegExp(sources.join('|'), `${flags}g`) : undefined,
    regexTriggers,
  };
}

/**
 * Prefixes the names of a regex source's named groups, `(?<name>` and `\k<name>`, skipping
 * escapes and character classes (nested ones too, under the v flag). Returns the original names.
 */
function renameGroups(
  source: string,
  prefix: string,
  flags = '',
): { source: string; names: Set<string> } {
  const names = new Set<string>();
  const nestedClasses = flags.includes('v');
  // Two walks: a \k<name> is a backreference only when the pattern defines that name.
  const walk = (definition: (name: string) => string, reference: (name: string) => string) => {
    const definitionAt = /\(\?<([A-Za-z_$][\w$]*)>/y;
    const referenceAt = /\\k<([A-Za-z_$][\w$]*)>/y;
    let out = '';
    let classDepth = 0;
    let i = 0;
    while (i < source.length) {
      const char = source.charAt(i);
      definitionAt.lastIndex = referenceAt.lastIndex = i;
      const m = classDepth === 0 ? (definitionAt.exec(source) ?? referenceAt.exec(source)) : null;
      if (m?.[1] !== undefined) {
        const name = m[1];
        out += m[0].startsWith('(') ? `(?<${definition(name)}>` : `\\k<${reference(name)}>`;
        i += m[0].length;
        continue;
      }
      if (char === '\\') {
        out += source.slice(i, i + 2);
        i += 2;
        continue;
      }
      if (char === '[' && (classDepth === 0 || nestedClasses)) classDepth++;
      else if (char === ']' && classDepth > 0) classDepth--;
      out += char;
      i++;
    }
    return out;
  };
  walk(
    (name) => {
      names.add(name);
      return name;
    },
    (name) => name,
  );
  const renamed = walk(
    (name) => prefix + name,
    (name) => (names.has(name) ? prefix + name : name),
  );
  return { source: renamed, names };
}

/** Where matches may start, in the order they are to be tried. */
function findStarts(pass: Pass, text: string): Start[] {
  const starts: Start[] = [];
  for (const group of pass.literals) {
    const { literal, offset } = group;
    for (let at = text.indexOf(literal); at !== -1; at = text.indexOf(literal, at + 1)) {
      if (at >= offset) starts.push({ at: at - offset, group });
    }
  }
  const { regex } = pass;
  if (regex !== undefined) {
    regex.lastIndex = 0;
    for (let hit = regex.exec(text); hit !== null; hit = regex.exec(text)) {
      // A built-in trigger hits one character, so every position is tried; a configured
      // pattern's hit is the whole match, and trying each position inside it would be quadratic.
      regex.lastIndex = hit.index + Math.max(1, hit[0].length);
      const group = pass.regexTriggers.find((trigger) => hit.groups?.[trigger.group] !== undefined);
      if (group === undefined) continue;
      const before = group.startGroup === undefined ? '' : (hit.groups?.[group.startGroup] ?? '');
      starts.push({ at: hit.index - before.length, group });
    }
  }
  return starts.length > 1
    ? starts.sort((a, b) => a.at - b.at || a.group.order - b.group.order)
    : starts;
}

/**
 * Scans the text with one pass and returns it with the accepted matches replaced; each
 * replacement is appended to `record` when one is given.
 */
function runPass(pass: Pass, text: string, record?: Redaction[]): string {
  if (pass.mayMatch && !pass.mayMatch(text)) return text;
  const starts = findStarts(pass, text);
  let tokens: Array<[number, number]> | undefined;
  let out = '';
  let copied = 0;
  for (const { at, group } of starts) {
    // A start inside what was just redacted is skipped; after the secret, context is scanned on.
    if (at < copied) continue;
    for (const { kind, regex, accept } of group.candidates) {
      regex.lastIndex = at;
      const match = regex.exec(text);
      if (match === null) continue;
      // Only the group `secret` when it took part, so that the context stays readable.
      const [from, to] = match.indices?.groups?.secret ?? [at, at + match[0].length];
      if (from === to || (accept !== undefined && !accept(text.slice(from, to)))) continue;
      if (overlaps(from, to, (tokens ??= tokenRanges(text)))) continue;
      out += text.slice(copied, from) + `[REDACTED:${kind}]`;
      record?.push({ from, to, kind });
      copied = to;
      break;
    }
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** Where the text already holds redaction tokens, which are never redacted again. */
function tokenRanges(text: string): Array<[number, number]> {
  if (!text.includes(TOKEN_START)) return [];
  return Array.from(text.matchAll(TOKEN), (m) => [m.index, m.index + m[0].length]);
}

function overlaps(from: number, to: number, ranges: ReadonlyArray<[number, number]>): boolean {
  return ranges.some(([start, end]) => start < to && from < end);
}
