// Every bound the file tools apply, in one place. Results go into an agent's context window, so
// each tool shows a bounded amount and says how to get the rest rather than failing.

/** Read: lines shown when the caller gives no `limit`. */
export const READ_DEFAULT_LIMIT = 2000;

/** Read: characters of one line shown; the rest is replaced by a marker saying how many were cut. */
export const READ_MAX_LINE_CHARS = 2000;

/** Read: bytes of the whole result; past it the output stops with the offset to continue from. */
export const READ_MAX_BYTES = 256 * 1024;

/** Read, Edit: bytes at the start of a file inspected to decide whether it is binary. */
export const BINARY_SNIFF_BYTES = 8 * 1024;

/** Read: bytes read from disk per chunk while scanning for lines. */
export const READ_CHUNK_BYTES = 64 * 1024;

/** Edit: largest file Edit loads into memory to replace text in. */
export const EDIT_MAX_FILE_BYTES = 10 * 1024 * 1024;

/** Edit: lines of context shown around the edited region, before and after it. */
export const EDIT_SNIPPET_CONTEXT_LINES = 3;

/** Edit: most lines of the edited region shown in the result. */
export const EDIT_SNIPPET_MAX_LINES = 30;

/** LS: entries listed; the rest are counted in a marker. */
export const LS_MAX_ENTRIES = 1000;

/** Glob: paths listed (newest first); the rest are counted in a marker. */
export const GLOB_MAX_RESULTS = 1000;

/**
 * Glob, and Grep's globs with patterns in folder names: files rg lists below the pattern's literal
 * folder (before the pattern is matched) before it is stopped. Glob then says there may be more
 * matches; Grep stops checking that the files its glob selects are not ignored.
 */
export const GLOB_MAX_SCANNED = 100_000;

/** Glob, Grep: bytes of path list read from rg (GLOB_MAX_SCANNED paths of a generous 256 bytes). */
export const GLOB_MAX_SCANNED_BYTES = GLOB_MAX_SCANNED * 256;

/** Grep: output lines (content lines, paths or counts) shown when no head_limit is given. */
export const GREP_MAX_LINES = 2000;

/** Grep: bytes of output shown, whatever head_limit says. */
export const GREP_MAX_BYTES = 256 * 1024;

/**
 * Grep in a folder: bytes of the list of matching files rg's walk selects (at most GREP_MAX_LINES
 * paths of a generous 1 KiB), before each is opened, checked and searched again.
 */
export const GREP_SELECTED_MAX_BYTES = GREP_MAX_LINES * 1024;

/**
 * Grep: checked files handed to one rg run as open descriptors; more are searched by further
 * runs (each costs an rg start, about 10 ms), so a search never needs more than this many
 * descriptors on top of the sandbox's own (Node raises its soft limit to the hard one).
 */
export const GREP_HANDED_FILES = 512;

/** Grep: characters of a matching line rg prints before eliding the rest (rg --max-columns). */
export const GREP_MAX_LINE_CHARS = 2000;

/** Grep's type: bytes of `rg --type-list` read (rg 13 prints under 5 KB). */
export const FILE_TYPES_MAX_BYTES = 256 * 1024;

/** Grep's type: file types read from `rg --type-list` (rg 13 knows 169). */
export const FILE_TYPES_MAX_NAMES = 4096;

/** Grep's type: known types suggested for an unknown one. */
export const FILE_TYPE_SUGGESTIONS = 5;

/** rg: bytes of its stderr kept for error messages. */
export const RIPGREP_MAX_STDERR_BYTES = 16 * 1024;
