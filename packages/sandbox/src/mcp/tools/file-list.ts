import { closeSync } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { PathError, viaDescriptor } from '../../workspace/containment.js';
import type { ToolContext } from '../tool.js';
import { ToolFailure } from '../tool.js';
import { fsFailure } from './fs-failure.js';
import type { CompiledGlob } from './glob-pattern.js';
import { runRipgrep } from './ripgrep.js';

/** Any path inside a .git folder; Glob never lists them, whatever the pattern says. */
const IN_GIT_FOLDER = /(?:^|\/)\.git(?:\/|$)/;

/** The flags every listing of files uses: ignore files honoured, hidden files in, .git out. */
const LIST_FLAGS = ['--files', '--hidden', '--no-require-git', '--null', '--glob', '!.git'];

export interface FileList {
  /** Matching files, relative to the searched folder, in rg's (unsorted) order. */
  paths: string[];
  /** True when the caps stopped the listing early. */
  truncated: boolean;
}

/**
 * The files below `folder` that `glob` matches, as rg lists them: .gitignore and .ignore honoured,
 * hidden files included, .git left out, symlinks not followed. The glob is matched here rather than
 * given to rg, whose globs override .gitignore for the files they match; rg only lists, from the
 * glob's literal base folder so that "src/**" does not walk the whole tree. The caps apply to
 * what rg lists, before the glob is matched.
 */
export async function listFiles(
  ctx: ToolContext,
  folder: string,
  glob: CompiledGlob,
  caps: { maxFiles: number; maxBytes: number },
): Promise<FileList> {
  if (!(await isPlainSubfolder(folder, glob.base))) return { paths: [], truncated: false };
  // rg runs inside the base rather than being given it as a path: only then does it apply the
  // anchored rules ("src/gen/") of the .gitignore files above it. Whether the base itself is
  // ignored is asked at the same time.
  // rg runs in the folder opened and checked (its own view of the descriptor), never in whatever
  // a path leads to by then; the names it lists are only names, checked again by their users.
  const [allowed, listed] = await Promise.all([
    isNotIgnored(ctx, folder, glob.base),
    inCheckedFolder(ctx, join(folder, glob.base), (cwd) =>
      runRipgrep({
        args: LIST_FLAGS,
        cwd,
        env: ctx.childEnv,
        signal: ctx.signal,
        maxRecords: caps.maxFiles,
        maxBytes: caps.maxBytes,
        separator: 0,
      }),
    ),
  ]);
  if (listed.exitCode === 2 && listed.records === 0) {
    throw new ToolFailure(`Listing files failed: ${listed.stderr || 'rg exited with an error'}`);
  }
  if (!allowed) return { paths: [], truncated: false };
  // One decode and split of the whole list is much cheaper than a callback per path.
  const listedPaths = listed.output.split('\0');
  listedPaths.pop();
  const prefix = glob.base === '' ? '' : `${glob.base}/`;
  const paths: string[] = [];
  for (const listedPath of listedPaths) {
    const path = prefix + listedPath;
    if (glob.regex.test(path) && !IN_GIT_FOLDER.test(path)) paths.push(path);
  }
  return { paths, truncated: listed.truncated !== false };
}

/**
 * Whether `base` (a '/'-separated path below `folder`, '' for the folder itself) is a folder rg
 * would walk into: a real folder, not reached through a symlink (rg follows none), not .git.
 */
export async function isPlainSubfolder(folder: string, base: string): Promise<boolean> {
  if (base === '') return true;
  const segments = base.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..' || s === '.git')) return false;
  const lexical = join(folder, base);
  const real = await realpath(lexical).catch(() => undefined);
  if (real !== lexical) return false;
  // Gone again since realpath (a concurrent change): not a folder to walk.
  return stat(real).then(
    (stats) => stats.isDirectory(),
    () => false,
  );
}

/**
 * Whether no ignore file excludes `base` or a folder above it (up to `folder`), which only rg can
 * tell: walking from `folder` with a glob that matches nothing but what lies below base, rg lists
 * a file only if it may enter base and every folder above it.
 */
export async function isNotIgnored(
  ctx: ToolContext,
  folder: string,
  base: string,
): Promise<boolean> {
  if (base === '') return true;
  // A folder that is gone (or changed) meanwhile holds nothing rg could list: not allowed.
  const probe = await inCheckedFolder(ctx, folder, (cwd) =>
    runRipgrep({
      args: [...LIST_FLAGS, '--glob', `/${base.replace(/[\\*?[\]{}!,]/g, '\\$&')}/**`],
      cwd,
      env: ctx.childEnv,
      signal: ctx.signal,
      maxRecords: 1,
      maxBytes: Number.MAX_SAFE_INTEGER,
      separator: 0,
    }),
  ).catch((err: unknown) => {
    if (err instanceof ToolFailure || err instanceof PathError) return undefined;
    throw err;
  });
  return probe !== undefined && probe.records > 0;
}

/**
 * Runs `work` with a working folder for rg that is the folder at `realPath` as opened and checked
 * (Workspace.openFolder): a child process sees the descriptor it inherits at the same path.
 */
async function inCheckedFolder<T>(
  ctx: ToolContext,
  realPath: string,
  work: (cwd: string) => Promise<T>,
): Promise<T> {
  let fd: number;
  try {
    fd = ctx.workspace.openFolder(realPath, false);
  } catch (err) {
    // Gone or no longer a folder since it was checked: the caller's failure, like any missing path.
    throw fsFailure(err, ctx.workspace.relative(realPath), 'Directory');
  }
  try {
    return await work(viaDescriptor(fd));
  } finally {
    closeSync(fd);
  }
}
