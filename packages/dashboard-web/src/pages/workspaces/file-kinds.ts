/**
 * How the Files viewer shows a file: as an image, as text (highlighted in a language when it is
 * source), or offered for download (binary, or too large to show). Pure: no imports.
 */

/** Largest file shown as text; larger ones are offered for download. */
export const MAX_TEXT_BYTES = 1024 * 1024;
/** Largest text highlighted: beyond it highlighting would stall the page, so it is shown plain. */
export const MAX_HIGHLIGHT_BYTES = 256 * 1024;
/** Largest image shown inline. */
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

export type FileView =
  | { kind: 'image' }
  | { kind: 'text'; language: string | undefined }
  | { kind: 'download'; reason: 'binary' | 'too-large' };

const IMAGES = new Set(['png', 'jpg', 'jpeg', 'gif', 'webp', 'svg', 'ico', 'bmp', 'avif']);

/** Extensions that are never text: not worth fetching to find out. */
const BINARIES = new Set(
  (
    'zip gz tgz xz zst bz2 7z rar jar war class so dylib dll exe bin o a wasm pyc pdf mp3 mp4 ' +
    'mov avi mkv webm ogg wav flac woff woff2 ttf otf eot sqlite db psd'
  ).split(' '),
);

/** Extension (or whole file name, for the ones without) to highlight.js language. */
const LANGUAGES: Record<string, string> = {
  ts: 'typescript',
  tsx: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  json: 'json',
  jsonc: 'json',
  py: 'python',
  go: 'go',
  rs: 'rust',
  java: 'java',
  kt: 'kotlin',
  c: 'c',
  h: 'c',
  cc: 'cpp',
  cpp: 'cpp',
  hpp: 'cpp',
  cs: 'csharp',
  rb: 'ruby',
  php: 'php',
  sh: 'bash',
  bash: 'bash',
  zsh: 'bash',
  yaml: 'yaml',
  yml: 'yaml',
  toml: 'ini',
  ini: 'ini',
  cfg: 'ini',
  md: 'markdown',
  markdown: 'markdown',
  html: 'xml',
  htm: 'xml',
  xml: 'xml',
  svg: 'xml',
  css: 'css',
  scss: 'scss',
  sql: 'sql',
  diff: 'diff',
  patch: 'diff',
  dockerfile: 'dockerfile',
  makefile: 'makefile',
  mk: 'makefile',
};

/** The file's name after its last `/`, and its extension (lower case; the whole name when none). */
function nameParts(path: string): { name: string; ext: string } {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return { name, ext: (dot > 0 ? name.slice(dot + 1) : name).toLowerCase() };
}

/** The highlight.js language of a file, or undefined for plain text. */
export function languageOf(path: string): string | undefined {
  const { name, ext } = nameParts(path);
  if (/^dockerfile(\..*)?$/i.test(name) || /\.dockerfile$/i.test(name)) return 'dockerfile';
  return LANGUAGES[ext];
}

/** How to show a file of this path and size, before reading it. */
export function fileView(path: string, size: number): FileView {
  const { ext } = nameParts(path);
  if (IMAGES.has(ext)) {
    return size <= MAX_IMAGE_BYTES ? { kind: 'image' } : { kind: 'download', reason: 'too-large' };
  }
  if (BINARIES.has(ext)) return { kind: 'download', reason: 'binary' };
  if (size > MAX_TEXT_BYTES) return { kind: 'download', reason: 'too-large' };
  return { kind: 'text', language: languageOf(path) };
}

/**
 * Whether bytes read as text are not text after all: a NUL byte in the first 8 KiB (as git
 * decides), or bytes that are not UTF-8.
 */
export function looksBinary(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, 8192);
  if (head.includes(0)) return true;
  try {
    // A character cut at the end of the sample is not a reason to call the file binary.
    new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, lastWhole(head)));
    return false;
  } catch {
    return true;
  }
}

/** The length of `bytes` without a UTF-8 sequence cut at its end. */
function lastWhole(bytes: Uint8Array): number {
  const end = bytes.length;
  for (let back = 1; back <= 3 && end - back >= 0; back++) {
    const byte = bytes[end - back]!;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: look further back
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needed > back ? end - back : end;
  }
  return end;
}

/** A byte count for people: `512 B`, `12.3 KiB`, `4.0 MiB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** A text file's bytes as read (at most one byte more than is shown), and how to show them. */
export type TextRead =
  { kind: 'too-large' } | { kind: 'binary' } | { kind: 'text'; text: string; highlight: boolean };

export function readText(bytes: Uint8Array): TextRead {
  if (bytes.length > MAX_TEXT_BYTES) return { kind: 'too-large' };
  if (looksBinary(bytes)) return { kind: 'binary' };
  return {
    kind: 'text',
    text: new TextDecoder().decode(bytes),
    highlight: bytes.length <= MAX_HIGHLIGHT_BYTES,
  };
}

/** What the viewer says of a file it does not show: binary, or too large. */
export function notShown(binary: boolean): { title: string; text: string } {
  return binary
    ? { title: 'A binary file', text: 'This file is not text, so it is not shown here.' }
    : {
        title: 'Too large to show here',
        text: `Files are shown here up to ${formatBytes(MAX_TEXT_BYTES)}.`,
      };
}
