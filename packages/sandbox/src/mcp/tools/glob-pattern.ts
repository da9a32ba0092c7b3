import { ToolFailure } from '../tool.js';

/** A glob pattern the caller gave that cannot be compiled: the caller's mistake, so a ToolFailure. */
export class GlobSyntaxError extends ToolFailure {
  constructor(message: string) {
    super(message);
    this.name = 'GlobSyntaxError';
  }
}

export interface CompiledGlob {
  /** The pattern as compiled: without leading "./", a trailing "/" as "/**". Also valid for rg. */
  normalized: string;
  /** Tests a '/'-separated path relative to the searched folder. */
  regex: RegExp;
  /** The literal folders at the start of the pattern, under which every match lies ('' if none). */
  base: string;
  /** True for a pattern without '/', which matches file names at any depth. */
  basenameOnly: boolean;
  /**
   * For a path pattern that is `base`, then only a name glob ("src/*.ts"), "**" ("src/**") or
   * both ("src/**" + "/*.ts"): the name glob, and whether matches lie directly in base (no "**").
   * Such a pattern is "files named so below base", which rg can search for without a listing.
   */
  simple?: { name?: string; oneLevel: boolean };
}

/** Characters that make a path segment a pattern rather than a literal name. */
const GLOB_CHARS = /[*?[{\\]/;

/**
 * Compiles a glob with the rules of rg's --glob (gitignore's): `*` and `?` stay within one path
 * segment, `**` as a whole segment spans any number of folders, `[...]` and `{a,b}` work, `\`
 * escapes; a pattern without '/' matches the file name at any depth, one with '/' is anchored at
 * the searched folder. The file tools match in-process rather than pass the glob to rg, because
 * an rg glob that matches a file overrides .gitignore for it.
 */
export function compileGlob(pattern: string): CompiledGlob {
  let normalized = pattern;
  while (normalized.startsWith('./')) normalized = normalized.slice(2);
  if (normalized.endsWith('/')) normalized += '**';
  const anchored = normalized.startsWith('/');
  const p = normalized.replace(/^\/+/, '');
  if (p === '') throw new GlobSyntaxError(`empty glob pattern: "${pattern}"`);
  const basenameOnly = !anchored && !p.includes('/');

  const segments = p.split('/');
  // The literal folders before the first segment with a pattern (a literal path: all but its name).
  let firstPattern = segments.findIndex((segment) => GLOB_CHARS.test(segment));
  if (firstPattern === -1) firstPattern = segments.length - 1;
  const base = basenameOnly ? '' : segments.slice(0, firstPattern).join('/');
  const rest = segments.slice(firstPattern);
  const isName = (segment: string | undefined): segment is string =>
    segment !== undefined && segment !== '' && !segment.includes('**');
  let simple: CompiledGlob['simple'];
  if (!basenameOnly) {
    if (rest.length === 1 && isName(rest[0])) simple = { name: rest[0], oneLevel: true };
    else if (rest.length === 1 && rest[0] === '**') simple = { oneLevel: false };
    else if (rest.length === 2 && rest[0] === '**' && isName(rest[1])) {
      simple = { name: rest[1], oneLevel: false };
    }
  }
  const body = translate(p, pattern);
  let regex: RegExp;
  try {
    regex = new RegExp(`^${basenameOnly ? '(?:.*/)?' : ''}${body}$`, 'u');
  } catch (err) {
    // What translate lets through and RegExp refuses, e.g. a reversed range [z-a].
    throw new GlobSyntaxError(`invalid glob pattern "${pattern}": ${(err as Error).message}`);
  }
  return { normalized, regex, base, basenameOnly, simple };
}

function translate(p: string, original: string): string {
  let out = '';
  let depth = 0;
  let i = 0;
  while (i < p.length) {
    const c = p[i]!;
    if (c === '*') {
      if (p[i + 1] === '*') {
        const next = i + 2;
        const wholeSegment =
          (i === 0 || p[i - 1] === '/') && (next === p.length || p[next] === '/');
        if (wholeSegment && next === p.length) {
          out += '.*';
          i = next;
        } else if (wholeSegment) {
          // "**/" also matches no folder at all: a/**/b matches a/b.
          out += '(?:.*/)?';
          i = next + 1;
        } else {
          out += '[^/]*';
          i = next;
        }
      } else {
        out += '[^/]*';
        i++;
      }
    } else if (c === '?') {
      out += '[^/]';
      i++;
    } else if (c === '[') {
      const cls = charClass(p, i);
      if (cls === undefined) {
        out += '\\[';
        i++;
      } else {
        out += cls.source;
        i = cls.end;
      }
    } else if (c === '{') {
      depth++;
      out += '(?:';
      i++;
    } else if (c === ',' && depth > 0) {
      out += '|';
      i++;
    } else if (c === '}' && depth > 0) {
      depth--;
      out += ')';
      i++;
    } else if (c === '\\' && i + 1 < p.length) {
      out += escapeRegex(p[i + 1]!);
      i += 2;
    } else {
      out += escapeRegex(c);
      i++;
    }
  }
  if (depth > 0) throw new GlobSyntaxError(`unclosed "{" in glob pattern: "${original}"`);
  return out;
}

/** A bracket expression starting at `start`, or undefined when it is not closed (then literal). */
function charClass(p: string, start: number): { source: string; end: number } | undefined {
  let i = start + 1;
  const negated = p[i] === '!' || p[i] === '^';
  if (negated) i++;
  let members = '';
  // A ']' right after the opening is a member, not the end.
  let first = true;
  while (i < p.length && (p[i] !== ']' || first)) {
    const c = p[i]!;
    if (c === '\\' && i + 1 < p.length) {
      members += classMember(p[i + 1]!);
      i += 2;
    } else if (c === '-' && !first && p[i + 1] !== ']') {
      members += '-';
      i++;
    } else {
      members += classMember(c);
      i++;
    }
    first = false;
  }
  if (i >= p.length) return undefined;
  // A class never matches the separator, like * and ?.
  return { source: negated ? `[^/${members}]` : `(?!/)[${members}]`, end: i + 1 };
}

function classMember(c: string): string {
  return /[\\\]^[-]/.test(c) ? `\\${c}` : c;
}

function escapeRegex(c: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? `\\${c}` : c;
}
