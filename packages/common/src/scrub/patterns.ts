import { SECRET_NAME_ENDING } from './secret-env.js';

/**
 * A pattern and the kind shown in its replacement, `[REDACTED:<kind>]`. The whole match is
 * redacted, or only the named group `secret` when the pattern has one and it took part in the
 * match, so that the context around a secret (a variable name, a URL's user and host) stays
 * readable.
 */
export interface ScrubPattern {
  kind: string;
  pattern: RegExp;
}

/**
 * Where a built-in pattern's matches may start, found far more cheaply than by scanning for the
 * pattern itself: at each occurrence of a literal (minus `offset` characters), or at each match
 * of a regex that stops at one uncommon character and checks what precedes it in a lookbehind;
 * a group named `start` in that lookbehind captures the text between a match's start and the
 * hit.
 */
export type Trigger =
  { readonly literal: string; readonly offset: number } | { readonly regex: string };

/** A built-in pattern: `accept` may veto a candidate, the text that would be redacted. */
export interface BuiltinPattern extends ScrubPattern {
  readonly trigger: Trigger;
  readonly accept?: (candidate: string) => boolean;
}

/**
 * Writes each ASCII letter of a regex source as a two-case class (`a` → `[aA]`), for key names
 * that match in any case inside a RegExp that cannot take the i flag: the built-in triggers are
 * joined into one, and the token prefixes in it are case-sensitive. Escapes and classes are
 * copied as they are.
 */
function caseless(source: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const char = source.charAt(i);
    if (char === '\\') {
      out += char + source.charAt(++i);
    } else if (inClass) {
      if (char === ']') inClass = false;
      out += char;
    } else if (char === '[') {
      inClass = true;
      out += char;
    } else if (/[a-z]/i.test(char)) {
      out += `[${char.toLowerCase()}${char.toUpperCase()}]`;
    } else {
      out += char;
    }
  }
  return out;
}

/**
 * Values that name where a secret comes from instead of holding one: $VAR, ${VAR}, $(cmd), %VAR%,
 * <placeholder>, {{ template }}, process.env.X, os.environ[...] and the like.
 */
const REFERENCE =
  /^(?:\$|%\w+%$|<[^<>]*>$|\{\{|(?:process\.env|import\.meta\.env|os\.environ|os\.getenv|System\.getenv|ENV)\b)/;

/** Words people write where a secret would go in examples, and masks. */
const PLACEHOLDER = /^(?:password|passwd|pass|pwd|secret|token|changeme|x+|\*+|\.+)$/i;

/** A numeric literal as code writes it (8, -1, 0x1F, 1e3, 10n); shorter than 8 it is no secret. */
const SHORT_NUMBER = /^(?=.{1,7}$)[-+]?(?:0x[\da-f]+|\d[\d_]*(?:\.\d+)?(?:e[-+]?\d+)?)n?$/i;

/** obj.prop.other: code reading a value, as in `secret: options.secret`. */
const MEMBER_PATH = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/;

/** A URN or a URL names something (a WebDAV lock token is `urn:uuid:...`); is no secret itself. */
const LOCATOR = /^(?:urn:|[A-Za-z][\w+.-]*:\/\/)/;

/** Shorter assignment values are left alone: a key named token next to `a1` is rarely a secret. */
const MIN_ASSIGNED_LENGTH = 6;

/** In NAME=value form a value needs no digit, only this length (the trigger wants five anyway). */
const MIN_ENV_LENGTH = 5;

function isReferenceOrPlaceholder(value: string): boolean {
  return REFERENCE.test(value) || PLACEHOLDER.test(value);
}

/**
 * Whether the value of a secret-named key looks like a secret. Code uses the same key names
 * (`password: string`, `token = nextToken`, `secret: 'alpha'`), so the value must be at least six
 * characters with a digit, as generated tokens and most passwords are, and must not be a number,
 * a member path, a URN or URL, a reference or a placeholder.
 */
function looksLikeAssignedSecret(value: string): boolean {
  return (
    value.length >= MIN_ASSIGNED_LENGTH &&
    /\d/.test(value) &&
    !SHORT_NUMBER.test(value) &&
    !MEMBER_PATH.test(value) &&
    !LOCATOR.test(value) &&
    !isReferenceOrPlaceholder(value)
  );
}

/** The value of an upper-case NAME=value: anything from four characters that names no other source. */
function looksLikeEnvSecret(value: string): boolean {
  return (
    value.length >= MIN_ENV_LENGTH && !SHORT_NUMBER.test(value) && !isReferenceOrPlaceholder(value)
  );
}

/**
 * Between a key and its value: the key's closing quote if any (a backslash before it inside a JSON
 * string), `=`, `:=` or `:` but not `==`, `=>`, `::`, and the value's opening quote if any.
 */
const KEY_VALUE_SEPARATOR = String.raw`\\?["']?[ \t]*(?::=|=(?![=>~])|:(?![:=]))[ \t]*\\?["']?`;

/** A quoted value runs to its closing quote; whitespace ends it (a sentence, not a secret). */
const QUOTED_VALUE = String.raw`(?<=["'])[^\s"'\\]+(?=\\?["'])`;

/** The characters of an unquoted value: what cannot end a shell word or a code expression. */
const BARE = String.raw`[^\s"'\`\\;,|&<>(){}\[\]]+`;

/**
 * An unquoted value after `NAME=` with nothing around the `=`, as the shell, .env files and
 * `--flag=value` write it (code puts spaces there, or is minified into short names). It must end
 * where a shell word ends: a `(`, `,` or `}` after it makes it code.
 */
const SHELL_VALUE = String.raw`(?<=[A-Za-z]=)${BARE}(?=[\s;|&)"'\`]|$)`;

/**
 * An unquoted value after `key: ` as YAML writes it: no space before the colon, and the value is
 * all that follows on its line but a comment (a # after a space). An object literal's
 * `key: value,` and a ternary's `a ? b : c` fail one or the other.
 */
const YAML_VALUE = String.raw`(?<=[A-Za-z]["']?:[ \t]+)${BARE}(?=[ \t]*(?:(?<=[ \t])#[^\r\n]*)?(?![^\r\n]))`;

function rule(
  kind: string,
  trigger: Trigger,
  source: string,
  accept?: (candidate: string) => boolean,
): BuiltinPattern {
  const pattern = new RegExp(source);
  return accept ? { kind, pattern, trigger, accept } : { kind, pattern, trigger };
}

/** The `_` or `-` that ends an issuer's token prefix (ghp_, glpat-, xoxb-, sk_live_, sk-, npm_). */
const PREFIXED_TOKEN: Trigger = {
  regex: String.raw`[-_](?<=(?<start>\b(?:gh[pousr]|github|gl(?:pat|dt|rt|ptt|cbt|ft|imt|agent|soat|oas)|xox[abeprs]|xapp|[rs]k|npm|pypi))[-_])`,
};

/**
 * The `=` or `:` after a secret-named key, followed by at least five characters of a value (no
 * key-value pattern accepts less: `Basic` and `Token` are five), which spares `token = 1` in code.
 * `://` belongs to URLs.
 */
const KEY_VALUE: Trigger = {
  regex: String.raw`[:=](?<=(?<start>${caseless(`(?:${SECRET_NAME_ENDING}|authorization)`)}\\?["']?[ \t]*)[:=])(?!//)(?=[ \t]*\\?["']?[^\s"'\\]{5})`,
};

const URL: Trigger = { literal: '://', offset: 0 };

/**
 * The built-in patterns. Where two can match at the same position the first listed wins, so the
 * more specific come first (aws-secret-key before secret-assignment, anthropic-key before
 * openai-key). Prefixes and minimum lengths follow the issuers' published token formats; word
 * boundaries keep them from matching inside longer words.
 */
export const BUILTIN_PATTERNS: readonly BuiltinPattern[] = [
  // The whole block. Its body may be split by real newlines or by `\n` inside a JSON string, but
  // holds no quotes or braces, so two header strings in a program's source are not joined. A
  // block cut short (by head, or a truncated result) loses what follows its header.
  rule(
    'private-key',
    { literal: 'BEGIN', offset: 5 }, // dashes are common in text, capital letters less so
    String.raw`-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----(?:[^"'\`;{}()]*?-----END[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----|(?:\s|\\[rn])+[A-Za-z0-9+/=][A-Za-z0-9+/=\s\\:,.-]{15,})`,
  ),
  // scheme://user:password@host: only the password. It runs to the last @ before the path.
  rule(
    'url-credentials',
    URL,
    String.raw`://[^\s:/?#@"'\`<>()\[\]{}]*:(?<secret>[^\s/?#"'\`<>()\[\]{}]+)@`,
    (password) => !isReferenceOrPlaceholder(password),
  ),
  rule(
    'slack-webhook',
    URL,
    String.raw`://hooks\.slack\.com/(?:services|workflows|triggers)/(?<secret>[A-Za-z0-9_/-]{20,})`,
  ),
  rule(
    'authorization',
    KEY_VALUE,
    caseless('authorization') +
      KEY_VALUE_SEPARATOR +
      caseless('(?:bearer|basic|token)') +
      String.raw`[ \t]+(?<secret>[A-Za-z0-9._~+/-]+=*)(?![A-Za-z0-9._~+/=-])`,
    // Short ones without a digit are examples (`token my-token`); base64 of user:pass may have none.
    (credentials) =>
      credentials.length >= 8 &&
      (/\d/.test(credentials) || credentials.length >= 12) &&
      !isReferenceOrPlaceholder(credentials),
  ),
  rule(
    'aws-secret-key',
    KEY_VALUE,
    caseless('secret[_-]?access[_-]?key') +
      KEY_VALUE_SEPARATOR +
      String.raw`(?<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])`,
  ),
  // NAME=value as the environment, the shell and .env files write it: an upper-case name and `=`
  // with nothing around it. Any value but a reference or a placeholder is taken: in this form
  // `DB_PASSWORD=correcthorse` is as much a secret as one with digits.
  rule(
    'secret-assignment',
    KEY_VALUE,
    String.raw`(?<=(?<![A-Za-z0-9_])[A-Z0-9_]*)(?:TOKEN|SECRET|PASSW(?:OR)?D|API_?KEY|PRIVATE_?KEY|SECRET_?(?:ACCESS_?)?KEY)=["']?(?<secret>${QUOTED_VALUE}|${SHELL_VALUE})`,
    looksLikeEnvSecret,
  ),
  rule(
    'secret-assignment',
    KEY_VALUE,
    caseless(SECRET_NAME_ENDING) +
      KEY_VALUE_SEPARATOR +
      `(?<secret>${QUOTED_VALUE}|${SHELL_VALUE}|${YAML_VALUE})`,
    looksLikeAssignedSecret,
  ),
  rule('aws-access-key', { literal: 'IA', offset: 2 }, String.raw`\b(?:AKIA|ASIA)[A-Z0-9]{16}\b`),
  rule(
    'github-token',
    PREFIXED_TOKEN,
    String.raw`\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{30,})\b`,
  ),
  rule(
    'gitlab-token',
    PREFIXED_TOKEN,
    String.raw`\bgl(?:pat|dt|rt|ptt|cbt|ft|imt|agent|soat|oas)-[A-Za-z0-9_-]{20,}(?:\.[A-Za-z0-9_-]+)*`,
  ),
  // Slack tokens carry numeric ids; requiring a digit spares kebab-case words after "xoxb-".
  rule(
    'slack-token',
    PREFIXED_TOKEN,
    String.raw`\b(?:xox[abeprs]|xapp)-(?=[A-Za-z0-9-]*\d)[A-Za-z0-9-]{10,}`,
  ),
  rule('stripe-key', PREFIXED_TOKEN, String.raw`\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}\b`),
  rule('anthropic-key', PREFIXED_TOKEN, String.raw`\bsk-ant-[A-Za-z0-9_-]{20,}`),
  // A digit and a capital letter: CSS class names and kebab-case words after "sk-" have neither.
  rule(
    'openai-key',
    PREFIXED_TOKEN,
    String.raw`\bsk-(?:proj-|svcacct-|admin-)?(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Z])[A-Za-z0-9_-]{20,}`,
  ),
  rule(
    'google-api-key',
    { literal: 'AIza', offset: 0 },
    String.raw`\bAIza[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])`,
  ),
  rule('npm-token', PREFIXED_TOKEN, String.raw`\bnpm_[A-Za-z0-9]{36}\b`),
  rule('pypi-token', PREFIXED_TOKEN, String.raw`\bpypi-AgE[A-Za-z0-9_-]{50,}`),
  // header.payload.signature, the header being base64url JSON (`{"` encodes as eyJ).
  rule(
    'jwt',
    { literal: 'yJ', offset: 1 },
    String.raw`\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+){0,2}`,
  ),
];

/** `kind=regex`: a kind is a word of letters, digits, `_`, `.` and `-` before the first `=`. */
const KIND_PREFIX = /^([A-Za-z0-9][\w.-]*)=(.*)$/;
/** JavaScript has no inline flags; this one prefix is read as the i flag. */
const IGNORE_CASE_PREFIX = '(?i)';

/**
 * Parses a patterns file (the one SVC_SCRUB_PATTERNS_FILE names): one pattern per line, `kind=regex`
 * or just `regex` (kind "custom"), a regex starting with `(?i)` ignoring case. Blank lines and lines
 * starting with # are ignored, and spaces around a line are trimmed. A pattern that does not
 * compile, or that matches the empty string (it would redact nothing yet match everywhere), throws
 * an Error naming its line.
 */
export function parsePatternFile(text: string): ScrubPattern[] {
  const patterns: ScrubPattern[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const prefixed = KIND_PREFIX.exec(line);
    const kind = prefixed?.[1] ?? 'custom';
    let source = prefixed?.[2] ?? line;
    let flags = '';
    if (source.startsWith(IGNORE_CASE_PREFIX)) {
      source = source.slice(IGNORE_CASE_PREFIX.length);
      flags = 'i';
    }
    const where = `scrub patterns line ${index + 1}`;
    if (source === '') throw new Error(`${where}: the pattern after "${kind}=" is empty`);
    let pattern: RegExp;
    try {
      pattern = new RegExp(source, flags);
    } catch (error) {
      throw new Error(`${where}: ${(error as Error).message}`, { cause: error });
    }
    if (pattern.test('')) throw new Error(`${where}: /${source}/ matches the empty string`);
    patterns.push({ kind, pattern });
  });
  return patterns;
}
