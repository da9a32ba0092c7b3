import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApiError, UNAUTHORIZED_EVENT, api } from '../../api';
import { Empty, ErrorState, Loading } from '../../ui/states';
import { errorSentence } from './errors';
import {
  MAX_TEXT_BYTES,
  fileView,
  formatBytes,
  languageOf,
  notShown,
  readText,
  type FileView,
} from './file-kinds';
import {
  TREE_PAGE,
  ancestors,
  folderPage,
  gitignoreOf,
  initiallyExpanded,
  nameOf,
  otherKindText,
  parentOf,
  sortedEntries,
  toggled,
  type TreeEntry,
  type TreeListing,
} from './file-tree';
import { highlightedHtml } from './highlight';
import { IgnoreRules } from './ignore-rules';
import { When } from './parts';
import { doorPath, type PodRef } from './sandbox-door';
import './agent-workspace.css';

type Folder =
  | { state: 'loaded'; entries: TreeEntry[]; truncated: boolean }
  | { state: 'failed'; error: unknown };

/** GETs a door path's bytes; an error answer becomes an ApiError like api()'s. */
async function fetchBytes(path: string, signal: AbortSignal): Promise<Uint8Array> {
  // One byte more than is shown tells a file too large to show, without reading all of it.
  const response = await fetch(path, {
    credentials: 'same-origin',
    signal,
    headers: { range: `bytes=0-${MAX_TEXT_BYTES}` },
  });
  // The sandbox answers a range of an empty file 416.
  if (response.status === 416) return new Uint8Array();
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { error?: string; message?: string };
    if (response.status === 401) window.dispatchEvent(new Event(UNAUTHORIZED_EVENT));
    throw new ApiError(
      response.status,
      body.error ?? `http_${response.status}`,
      body.message ?? `The file could not be read (${response.status}).`,
    );
  }
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * The Files tab: the workspace's tree, each folder read when it is opened (the tree API's `depth=1`),
 * entries git ignores marked, and the chosen file shown beside it.
 */
export function FilesPanel({
  pod,
  selected,
  onSelect,
}: {
  pod: PodRef;
  /** The file shown (a path relative to the workspace root), or null. */
  selected: string | null;
  onSelect: (path: string | null) => void;
}) {
  const [folders, setFolders] = useState<Record<string, Folder>>({});
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => initiallyExpanded(selected));
  const [shown, setShown] = useState<Record<string, number>>({});
  /** The `.gitignore` files read so far, by folder. */
  const [gitignores, setGitignores] = useState<Record<string, string>>({});
  const rules = useMemo(() => {
    const all = new IgnoreRules();
    for (const [folder, text] of Object.entries(gitignores)) all.add(folder, text);
    return all;
  }, [gitignores]);
  const requested = useRef(new Set<string>());

  const load = useCallback(
    (dir: string) => {
      requested.current.add(dir);
      // No "loading" state is set here: a folder without an answer yet shows as loading.
      api<TreeListing>(doorPath(pod, 'api/tree', { path: dir, depth: 1 }))
        .then((listing) => {
          setFolders((f) => ({
            ...f,
            [dir]: {
              state: 'loaded',
              entries: sortedEntries(listing.entries),
              truncated: listing.truncated,
            },
          }));
          const gitignore = gitignoreOf(listing.entries);
          if (gitignore === undefined) return;
          return api<string>(doorPath(pod, 'api/file', { path: gitignore.path })).then((text) =>
            setGitignores((g) => ({ ...g, [dir]: text })),
          );
        })
        .catch((error: unknown) =>
          setFolders((f) => ({ ...f, [dir]: { state: 'failed', error } })),
        );
    },
    [pod],
  );

  // Every expanded folder is read once; Refresh reads them all again.
  useEffect(() => {
    for (const dir of expanded) if (!requested.current.has(dir)) load(dir);
  }, [expanded, load]);

  // A file opened from elsewhere (the Changes tab) shows with its folders open.
  const [revealed, setRevealed] = useState(selected);
  if (selected !== revealed) {
    setRevealed(selected);
    if (selected !== null) setExpanded((e) => new Set([...e, ...ancestors(selected)]));
  }

  const [round, setRound] = useState(0);
  const refresh = () => {
    setRound((r) => r + 1);
    setGitignores({});
    requested.current.clear();
    for (const dir of expanded) load(dir);
  };

  const toggle = (dir: string) => setExpanded((e) => toggled(e, dir));

  const selectedEntry =
    selected === null
      ? undefined
      : (() => {
          const folder = folders[parentOf(selected)];
          return folder?.state === 'loaded'
            ? folder.entries.find((e) => e.path === selected)
            : undefined;
        })();

  const renderFolder = (dir: string, inheritedIgnore: boolean) => {
    const folder = folders[dir];
    if (folder === undefined) {
      return <p className="ws-tree-note muted">Loading…</p>;
    }
    if (folder.state === 'failed') {
      return (
        <p className="ws-tree-note ws-error" role="alert">
          {errorSentence(folder.error)}{' '}
          <button
            type="button"
            className="button small"
            onClick={() => {
              setFolders(({ [dir]: _, ...rest }) => rest);
              load(dir);
            }}
          >
            Try again
          </button>
        </p>
      );
    }
    if (folder.entries.length === 0) return <p className="ws-tree-note muted">Empty folder</p>;
    const limit = shown[dir] ?? TREE_PAGE;
    const { visible, rest, more } = folderPage(dir, folder.entries, limit);
    return (
      <>
        <ul className="ws-tree" aria-label={dir === '.' ? 'Workspace root' : `Folder ${dir}`}>
          {visible.map((entry) => {
            const isDir = entry.type === 'dir';
            const ignored = inheritedIgnore || rules.ignores(entry.path, isDir);
            const open = isDir && expanded.has(entry.path);
            return (
              <li key={entry.path} className={ignored ? 'ws-tree-ignored' : undefined}>
                {isDir ? (
                  <button
                    type="button"
                    className="ws-tree-item"
                    aria-expanded={open}
                    onClick={() => toggle(entry.path)}
                  >
                    <span className="ws-tree-icon" aria-hidden="true">
                      {open ? '▾' : '▸'}
                    </span>
                    {nameOf(entry.path)}/{ignored && <IgnoredMark />}
                  </button>
                ) : entry.type === 'file' ? (
                  <button
                    type="button"
                    className="ws-tree-item"
                    aria-current={entry.path === selected ? 'true' : undefined}
                    onClick={() => onSelect(entry.path)}
                  >
                    <span className="ws-tree-icon" aria-hidden="true" />
                    {nameOf(entry.path)}
                    {ignored && <IgnoredMark />}
                    <span className="ws-tree-size">{formatBytes(entry.size)}</span>
                  </button>
                ) : (
                  <span className="ws-tree-item ws-tree-other">
                    <span className="ws-tree-icon" aria-hidden="true" />
                    {nameOf(entry.path)}
                    <span className="ws-tree-size">{otherKindText(entry.type)}</span>
                  </span>
                )}
                {open && (
                  <div className="ws-tree-children">{renderFolder(entry.path, ignored)}</div>
                )}
              </li>
            );
          })}
        </ul>
        {more !== null && (
          <button
            type="button"
            className="button small ws-tree-more"
            onClick={() => setShown((s) => ({ ...s, [dir]: limit + TREE_PAGE }))}
          >
            {more}
          </button>
        )}
        {folder.truncated && rest === 0 && (
          <p className="ws-tree-note muted">
            This folder has more entries than the workspace lists at once (10,000). Download the
            workspace as a zip to see them all.
          </p>
        )}
      </>
    );
  };

  return (
    <div className="ws-files">
      <div className="ws-section-head">
        <h3 id="files-title">Files</h3>
        <div className="actions">
          <button type="button" className="button small" onClick={refresh}>
            Refresh
          </button>
          <a className="button small" href={doorPath(pod, 'api/download')} download>
            Download as zip
          </a>
        </div>
      </div>
      <div className="ws-files-body">
        <nav className="ws-files-tree card" aria-labelledby="files-title">
          {renderFolder('.', false)}
        </nav>
        <section className="ws-files-view card" aria-label="File viewer">
          {selected === null ? (
            <Empty title="No file open">
              <p>Choose a file in the tree to read it here.</p>
            </Empty>
          ) : (
            <FileViewer
              key={`${round}:${selected}`}
              pod={pod}
              path={selected}
              entry={selectedEntry}
            />
          )}
        </section>
      </div>
    </div>
  );
}

function IgnoredMark() {
  return (
    <span className="badge ws-tree-badge" title="Ignored by git">
      ignored
    </span>
  );
}

type Content =
  | { state: 'loading' }
  | { state: 'failed'; error: unknown }
  | { state: 'binary' }
  | { state: 'too-large' }
  | { state: 'text'; text: string; html: string | undefined };

/** One file: highlighted text, an image, or a download link when it cannot be shown. */
function FileViewer({
  pod,
  path,
  entry,
}: {
  pod: PodRef;
  path: string;
  /** The tree's entry, once its folder is read (size and time). */
  entry: TreeEntry | undefined;
}) {
  const url = doorPath(pod, 'api/file', { path });
  // Before its folder is read the size is unknown: the extension decides, and the read is capped.
  const view: FileView = fileView(path, entry?.size ?? 0);
  const [content, setContent] = useState<Content>({ state: 'loading' });
  const [round, setRound] = useState(0);
  const wantsText = view.kind === 'text';
  const language = languageOf(path);

  useEffect(() => {
    if (!wantsText) return;
    const controller = new AbortController();
    fetchBytes(url, controller.signal)
      .then((bytes) => {
        const read = readText(bytes);
        if (read.kind !== 'text') return setContent({ state: read.kind });
        const html = read.highlight ? highlightedHtml(read.text, language) : undefined;
        setContent({ state: 'text', text: read.text, html });
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setContent({ state: 'failed', error });
      });
    return () => controller.abort();
  }, [url, wantsText, language, round]);

  const download = (
    <a className="button small" href={url} download={nameOf(path)}>
      Download
    </a>
  );

  return (
    <div className="ws-file">
      <div className="ws-file-head">
        <h4 className="ws-file-name">
          <code>{path}</code>
        </h4>
        {entry !== undefined && (
          <span className="muted ws-small">
            {formatBytes(entry.size)}, changed <When value={entry.mtime} />
          </span>
        )}
        {download}
      </div>
      {view.kind === 'image' ? (
        <img className="ws-file-image" src={url} alt={nameOf(path)} />
      ) : view.kind === 'download' || content.state === 'too-large' ? (
        <NotShown binary={view.kind === 'download' && view.reason === 'binary'} />
      ) : content.state === 'loading' ? (
        <Loading label="Loading the file" />
      ) : content.state === 'failed' ? (
        <ErrorState
          title="The file could not be read"
          error={errorSentence(content.error)}
          retry={() => {
            setContent({ state: 'loading' });
            setRound((r) => r + 1);
          }}
        />
      ) : content.state === 'binary' ? (
        <NotShown binary />
      ) : content.text === '' ? (
        <p className="muted">The file is empty.</p>
      ) : (
        // Focusable so that keyboard users can scroll a long file (WCAG 2.1.1).
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
        <pre className="ws-code" tabIndex={0} aria-label={`Contents of ${path}`}>
          {content.html === undefined ? (
            <code>{content.text}</code>
          ) : (
            // highlight.js escapes the file's text; only its own token spans are markup.
            <code className="hljs" dangerouslySetInnerHTML={{ __html: content.html }} />
          )}
        </pre>
      )}
    </div>
  );
}

/** A file the viewer does not show, binary or too large: it is to be downloaded. */
function NotShown({ binary }: { binary: boolean }) {
  const { title, text } = notShown(binary);
  return (
    <Empty title={title}>
      <p>{text} Download it to open it on your machine.</p>
    </Empty>
  );
}
