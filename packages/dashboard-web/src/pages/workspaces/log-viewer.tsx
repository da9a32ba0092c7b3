import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { ApiError, UNAUTHORIZED_EVENT } from '../../api';
import { Empty, ErrorState, Loading } from '../../ui/states';
import { useApi } from '../../ui/use-api';
import { apiPath, errorSentence } from './errors';
import { StatusMessage } from './parts';
import type { Pod } from './types';

/** How many of the last lines to read. */
const TAIL_CHOICES = [100, 500, 1000, 5000];

/** Most characters kept while following: older lines give way to newer ones. */
const MAX_CHARS = 2_000_000;
const KEEP_CHARS = 1_500_000;

/** Within this many pixels of the bottom counts as at the bottom. */
const BOTTOM_SLACK = 24;

/** The pod whose log is shown first: the newest running one, else the newest, as the API does. */
function defaultPod(pods: Pod[]): Pod | undefined {
  const byStart = [...pods].sort((a, b) => (b.startedAt ?? '').localeCompare(a.startedAt ?? ''));
  return byStart.find((p) => p.phase === 'Running') ?? byStart[0];
}

function capped(text: string): string {
  if (text.length <= MAX_CHARS) return text;
  const from = text.indexOf('\n', text.length - KEEP_CHARS);
  return text.slice(from === -1 ? text.length - KEEP_CHARS : from + 1);
}

interface Streamed {
  /** The log request it answers. */
  key: string;
  text: string;
  error: unknown;
}

/**
 * The log of one container of one of an agent's pods: the last lines, or, with Follow on, the
 * last lines and then each new one as it is written (a streamed fetch, stopped when Follow is
 * turned off or the page is left). Keeps the newest line in view unless the reader scrolled up.
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
  const [streamed, setStreamed] = useState<Streamed>({ key: '', text: '', error: null });
  const [notice, setNotice] = useState<string | null>(null);
  const [pinned, setPinned] = useState(true);
  const pinnedRef = useRef(true);
  const logRef = useRef<HTMLPreElement>(null);

  const pod = pods.find((p) => p.name === podChoice) ?? defaultPod(pods);
  const container =
    pod?.containers.find((c) => c === containerChoice) ?? pod?.containers[0] ?? undefined;
  const query = new URLSearchParams({ tailLines: String(tail) });
  if (pod !== undefined) query.set('pod', pod.name);
  if (container !== undefined) query.set('container', container);
  const url = `${apiPath(workspace, 'agents', agent, 'logs')}?${query.toString()}`;

  const hasPod = pod !== undefined;
  const once = useApi<string>(follow || !hasPod ? null : url);

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
      setStreamed({ key: url, text: '', error: null });
      if (response.body === null) return;
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        const chunk = decoder.decode(value, { stream: true });
        if (chunk !== '') setStreamed((s) => ({ ...s, text: capped(s.text + chunk) }));
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
      setStreamed((s) => ({ key: url, text: s.key === url ? s.text : '', error: problem }));
      setFollow(false);
    });
    return () => controller.abort();
  }, [follow, url, hasPod]);

  const text = follow
    ? streamed.key === url
      ? streamed.text
      : undefined
    : once.loading
      ? undefined
      : once.data;

  // Keep the newest line in view, unless the reader scrolled up to read.
  useLayoutEffect(() => {
    const log = logRef.current;
    if (log !== null && pinnedRef.current) log.scrollTop = log.scrollHeight;
  }, [text]);

  if (pods.length === 0 || pod === undefined) {
    return (
      <Empty title="No log to show">
        <p>The agent has no pods right now, so there is no log to read.</p>
      </Empty>
    );
  }

  const error = follow ? null : (once.error ?? (streamed.key === url ? streamed.error : null));

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
      {text === undefined && error == null ? (
        <Loading label="Loading the log" />
      ) : (
        text !== undefined && (
          <div className="ws-log-frame">
            <pre
              ref={logRef}
              className="log"
              role="log"
              aria-live="off"
              aria-label={`Log of pod ${pod.name}${container === undefined ? '' : `, container ${container}`}`}
              onScroll={(e) => {
                const log = e.currentTarget;
                const atBottom =
                  log.scrollHeight - log.scrollTop - log.clientHeight <= BOTTOM_SLACK;
                pinnedRef.current = atBottom;
                if (atBottom !== pinned) setPinned(atBottom);
              }}
            >
              {text === '' ? <span className="ws-log-empty">The log is empty.</span> : text}
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
        )
      )}
    </div>
  );
}
