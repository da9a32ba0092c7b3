import {
  memo,
  useDeferredValue,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { ApiError, UNAUTHORIZED_EVENT } from '../../api';
import { formatTime } from '../../ui/format';
import { Empty, ErrorState, Loading } from '../../ui/states';
import { useApi } from '../../ui/use-api';
import { apiPath, errorSentence } from './errors';
import {
  EMPTY_BUFFER,
  LOG_LEVELS,
  appendText,
  filterLines,
  linesOf,
  logFileName,
  logText,
  parseLog,
  type LogBuffer,
  type LogLevel,
  type LogLine,
} from './log-lines';
import {
  TAIL_CHOICES,
  atBottom,
  clock,
  countText,
  fieldsLabel,
  isUnderstood,
  logContainer,
  logLabel,
  logPod,
  logQuery,
} from './log-view';
import { StatusMessage } from './parts';
import type { Pod } from './types';
import './log-viewer.css';

const LEVEL_LABELS: Record<LogLevel, string> = {
  debug: 'Debug',
  info: 'Info',
  warn: 'Warning',
  error: 'Error',
};

interface Streamed {
  /** The log request it answers. */
  key: string;
  buffer: LogBuffer;
  error: unknown;
}

/**
 * One line of the log, inline in the <pre> and ended by its line break, so that the log's text
 * (to copy, or to find) is the lines as they were written. A JSON line shows its time, level and
 * message, and a button to unfold its other fields.
 */
const LogRow = memo(function LogRow({ line }: { line: LogLine }) {
  const [open, setOpen] = useState(false);
  if (!isUnderstood(line)) {
    return (
      <>
        <span className="log-line">{line.raw}</span>
        {'\n'}
      </>
    );
  }
  const iso = line.time === null ? null : new Date(line.time).toISOString();
  return (
    <>
      <span className={`log-line log-json log-is-${line.level ?? 'other'}`}>
        {iso !== null && line.time !== null && (
          <>
            <time className="log-time" dateTime={iso} title={formatTime(iso)}>
              {clock(line.time)}
            </time>{' '}
          </>
        )}
        {line.levelName !== null && (
          <>
            <span className="log-level">{line.levelName.toUpperCase()}</span>{' '}
          </>
        )}
        <span className="log-message">{line.message}</span>
        {line.fields.length > 0 && (
          <>
            {' '}
            <button
              type="button"
              className="log-more"
              aria-expanded={open}
              onClick={() => setOpen((o) => !o)}
            >
              {fieldsLabel(line.fields.length, open)}
            </button>
          </>
        )}
        {open && (
          <span className="log-fields">
            {line.fields.map(([key, value]) => (
              <span key={key} className="log-field">
                {'\n    '}
                <span className="log-key">{key}</span>: {value}
              </span>
            ))}
          </span>
        )}
      </span>
      {'\n'}
    </>
  );
});

/**
 * The log of one container of one of an agent's pods: the last lines, or, with Follow on, the
 * last lines and then each new one as it is written (a streamed fetch, stopped when Follow is
 * turned off or the page is left). Keeps the newest line in view unless the reader scrolled up.
 * JSON lines are shown as time, level and message; lines can be filtered by level and text, and
 * the lines shown downloaded. At most MAX_LINES lines are kept, the oldest giving way.
 */
export function LogViewer({
  workspace,
  agent,
  pods,
}: {
  workspace: string;
  agent: string;
  pods: Pod[];
}) {
  const id = useId();
  const [podChoice, setPodChoice] = useState<string | null>(null);
  const [containerChoice, setContainerChoice] = useState<string | null>(null);
  const [tail, setTail] = useState(500);
  const [follow, setFollow] = useState(false);
  const [streamed, setStreamed] = useState<Streamed>({
    key: '',
    buffer: EMPTY_BUFFER,
    error: null,
  });
  const [notice, setNotice] = useState<string | null>(null);
  const [pinned, setPinned] = useState(true);
  const [levels, setLevels] = useState<ReadonlySet<LogLevel>>(() => new Set(LOG_LEVELS));
  const [other, setOther] = useState(true);
  const [search, setSearch] = useState('');
  const [wrap, setWrap] = useState(true);
  const pinnedRef = useRef(true);
  const logRef = useRef<HTMLPreElement>(null);
  const downloadUrl = useRef<string | null>(null);

  const pod = logPod(pods, podChoice);
  const container = logContainer(pod, containerChoice);
  const query = logQuery(tail, pod?.name, container);
  const url = `${apiPath(workspace, 'agents', agent, 'logs')}?${query.toString()}`;

  const hasPod = pod !== undefined;
  const once = useApi<string>(follow || !hasPod ? null : url);
  const readOnce = useMemo(
    () => (once.data === undefined ? undefined : parseLog(once.data)),
    [once.data],
  );

  useEffect(() => {
    if (!follow || !hasPod) return;
    const controller = new AbortController();
    const read = async () => {
      const response = await fetch(`${url}&follow=true`, {
        credentials: 'same-origin',
        signal: controller.signal,
      });
      if (!response.ok) {
        const body = (await response.json().catch(() => ({}))) as {
          error?: string;
          message?: string;
        };
        if (response.status === 401) window.dispatchEvent(new Event(UNAUTHORIZED_EVENT));
        throw new ApiError(
          response.status,
          body.error ?? `http_${response.status}`,
          body.message ?? `The log could not be read (${response.status}).`,
        );
      }
      setStreamed({ key: url, buffer: EMPTY_BUFFER, error: null });
      if (response.body === null) return;
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        const chunk = decoder.decode(value, { stream: true });
        if (chunk !== '') setStreamed((s) => ({ ...s, buffer: appendText(s.buffer, chunk) }));
      }
      // The pod ended (or the server closed the stream): back to the log as it now stands.
      setNotice('The log stream ended: the pod stopped writing. Turn Follow on again to retry.');
      setFollow(false);
    };
    read().catch((error: unknown) => {
      if (controller.signal.aborted) return;
      const problem =
        error instanceof ApiError
          ? error
          : new ApiError(0, 'network_error', 'The log stream was interrupted.');
      setStreamed((s) => ({
        key: url,
        buffer: s.key === url ? s.buffer : EMPTY_BUFFER,
        error: problem,
      }));
      setFollow(false);
    });
    return () => controller.abort();
  }, [follow, url, hasPod]);

  // A blob URL made for a download lives until the next download or until the viewer goes.
  useEffect(
    () => () => {
      if (downloadUrl.current !== null) URL.revokeObjectURL(downloadUrl.current);
    },
    [],
  );

  const buffer = follow
    ? streamed.key === url
      ? streamed.buffer
      : undefined
    : once.loading
      ? undefined
      : readOnce;
  const lines = useMemo(() => (buffer === undefined ? undefined : linesOf(buffer)), [buffer]);
  // Typing in the filter stays quick on a long log: the list catches up when there is time.
  const text = useDeferredValue(search);
  const shown = useMemo(
    () => (lines === undefined ? undefined : filterLines(lines, { levels, other, text })),
    [lines, levels, other, text],
  );

  // Keep the newest line in view, unless the reader scrolled up to read.
  useLayoutEffect(() => {
    const log = logRef.current;
    if (log !== null && pinnedRef.current) log.scrollTop = log.scrollHeight;
  }, [shown, wrap]);

  if (pods.length === 0 || pod === undefined) {
    return (
      <Empty title="No log to show">
        <p>The agent has no pods right now, so there is no log to read.</p>
      </Empty>
    );
  }

  const error = follow ? null : (once.error ?? (streamed.key === url ? streamed.error : null));

  const download = () => {
    if (shown === undefined) return;
    if (downloadUrl.current !== null) URL.revokeObjectURL(downloadUrl.current);
    const href = URL.createObjectURL(
      new Blob([logText(shown)], { type: 'text/plain;charset=utf-8' }),
    );
    downloadUrl.current = href;
    const link = document.createElement('a');
    link.href = href;
    link.download = logFileName(pod.name, container);
    document.body.append(link);
    link.click();
    link.remove();
  };

  const toggleLevel = (level: LogLevel, on: boolean) =>
    setLevels((current) => {
      const next = new Set(current);
      if (on) next.add(level);
      else next.delete(level);
      return next;
    });

  return (
    <div className="ws-logs">
      <div className="ws-log-controls">
        {pods.length > 1 ? (
          <div className="field">
            <label htmlFor={`${id}-pod`}>Pod</label>
            <select
              id={`${id}-pod`}
              value={pod.name}
              onChange={(e) => {
                setPodChoice(e.target.value);
                setContainerChoice(null);
              }}
            >
              {pods.map((p) => (
                <option key={p.name} value={p.name}>
                  {p.name} ({p.phase})
                </option>
              ))}
            </select>
          </div>
        ) : (
          <p className="ws-log-source">
            Pod <code>{pod.name}</code>
          </p>
        )}
        {pod.containers.length > 1 ? (
          <div className="field">
            <label htmlFor={`${id}-container`}>Container</label>
            <select
              id={`${id}-container`}
              value={container}
              onChange={(e) => setContainerChoice(e.target.value)}
            >
              {pod.containers.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </div>
        ) : (
          container !== undefined && (
            <p className="ws-log-source">
              Container <code>{container}</code>
            </p>
          )
        )}
        <div className="field">
          <label htmlFor={`${id}-tail`}>Last lines</label>
          <select id={`${id}-tail`} value={tail} onChange={(e) => setTail(Number(e.target.value))}>
            {TAIL_CHOICES.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </div>
        <div className="actions ws-log-buttons">
          <button
            type="button"
            className={follow ? 'button primary' : 'button'}
            aria-pressed={follow}
            onClick={() => {
              setNotice(null);
              pinnedRef.current = true;
              setPinned(true);
              setFollow((f) => !f);
            }}
          >
            Follow
          </button>
          {!follow && (
            <button type="button" className="button" onClick={once.reload}>
              Refresh
            </button>
          )}
          <button
            type="button"
            className="button"
            onClick={download}
            disabled={shown === undefined || shown.length === 0}
          >
            Download
          </button>
        </div>
      </div>
      <div className="ws-log-controls ws-log-filters">
        <fieldset className="ws-log-levels">
          <legend>Levels</legend>
          {LOG_LEVELS.map((level) => (
            <span key={level} className="ws-log-level-choice">
              <input
                id={`${id}-level-${level}`}
                type="checkbox"
                checked={levels.has(level)}
                onChange={(e) => toggleLevel(level, e.target.checked)}
              />
              <label htmlFor={`${id}-level-${level}`}>{LEVEL_LABELS[level]}</label>
            </span>
          ))}
          <span className="ws-log-level-choice">
            <input
              id={`${id}-level-other`}
              type="checkbox"
              checked={other}
              onChange={(e) => setOther(e.target.checked)}
            />
            <label htmlFor={`${id}-level-other`}>No level</label>
          </span>
        </fieldset>
        <div className="field ws-log-search">
          <label htmlFor={`${id}-search`}>Filter lines</label>
          <input
            id={`${id}-search`}
            type="search"
            value={search}
            placeholder="Text the lines contain"
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
        <div className="ws-check ws-log-wrap">
          <input
            id={`${id}-wrap`}
            type="checkbox"
            checked={wrap}
            onChange={(e) => setWrap(e.target.checked)}
          />
          <label htmlFor={`${id}-wrap`}>Wrap long lines</label>
        </div>
      </div>
      <StatusMessage
        message={
          notice ?? (follow ? 'Following the log: new lines appear as they are written.' : null)
        }
      />
      {error !== null && error !== undefined && (
        <ErrorState
          title="The log could not be read"
          error={errorSentence(error)}
          retry={once.reload}
        />
      )}
      {shown === undefined || lines === undefined || buffer === undefined ? (
        error == null && <Loading label="Loading the log" />
      ) : (
        <>
          <p className="ws-log-count">{countText(shown.length, lines.length, buffer.dropped)}</p>
          <div className="ws-log-frame">
            <pre
              ref={logRef}
              className={wrap ? 'log' : 'log log-nowrap'}
              role="log"
              aria-live="off"
              aria-label={logLabel(pod.name, container)}
              onScroll={(e) => {
                const bottom = atBottom(e.currentTarget);
                pinnedRef.current = bottom;
                if (bottom !== pinned) setPinned(bottom);
              }}
            >
              {lines.length === 0 ? (
                <span className="ws-log-empty">The log is empty.</span>
              ) : shown.length === 0 ? (
                <span className="ws-log-empty">No line matches the filter.</span>
              ) : (
                shown.map((line) => <LogRow key={line.id} line={line} />)
              )}
            </pre>
            {follow && !pinned && (
              <button
                type="button"
                className="button small ws-log-jump"
                onClick={() => {
                  const log = logRef.current;
                  if (log !== null) log.scrollTop = log.scrollHeight;
                  pinnedRef.current = true;
                  setPinned(true);
                }}
              >
                Jump to the newest lines
              </button>
            )}
          </div>
        </>
      )}
    </div>
  );
}
