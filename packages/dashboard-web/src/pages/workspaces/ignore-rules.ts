import ignore, { type Ignore } from 'ignore';

/**
 * Which entries of the workspace git ignores, from the `.gitignore` files read so far: each folder's
 * file applies to the paths under that folder, as git reads them. The tree loads folders lazily, so
 * the rules grow as folders are opened; entries under an ignored folder are ignored too.
 */
export class IgnoreRules {
  private readonly byFolder = new Map<string, Ignore>();

  /** The rules of the `.gitignore` in `folder` (`.` for the workspace root). */
  add(folder: string, content: string): void {
    this.byFolder.set(folder, ignore({ allowRelativePaths: true }).add(content));
  }

  /** Whether git ignores this path (relative to the workspace root; `dir` for folders). */
  ignores(path: string, dir: boolean): boolean {
    for (const [folder, rules] of this.byFolder) {
      const inside =
        folder === '.'
          ? path
          : path.startsWith(`${folder}/`)
            ? path.slice(folder.length + 1)
            : undefined;
      if (inside === undefined || inside === '') continue;
      if (rules.ignores(dir ? `${inside}/` : inside)) return true;
    }
    return false;
  }
}
