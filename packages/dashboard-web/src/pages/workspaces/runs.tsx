import {
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useReducer,
  useRef,
  useState,
  type FormEvent,
} from 'react';
import { Link } from 'react-router';
import { ApiError, api } from '../../api';
import { Empty, ErrorState, Loading } from '../../ui/states';
import { useApi } from '../../ui/use-api';
import { apiPath, errorSentence } from './errors';
import { ConnectionState, useFeedConnection, type FeedConnection } from './connection-state';
import { StatusMessage, When } from './parts';
import {
  PROVIDER_EXAMPLE,
  isCancellable,
  newestFirst,
  outcomeSentence,
  runErrorSentence,
  runStatus,
  runsPath,
  startRunOf,
  statusText,
  statusTone,
  taskExcerpt,
  usageText,
  variablesOf,
  type RunDraft,
  type RunStatus,
} from './run-rules';
import {
  EMPTY_TRANSCRIPT,
  callSummary,
  foldEvents,
  parseTranscriptEvent,
  prettyArguments,
  touchedFile,
  type TranscriptEvent,
  type TranscriptItem,
  type TranscriptView,
} from './run-transcript';
import type { PodRef } from './sandbox-door';
import type { AgentDetails, PromptPackList, Run, RunList, StartedRun } from './types';
import './runs.css';

/** How often the list is read again while a run of it is queued or running. */
const LIST_REFRESH_MS = 3_000;
/** Events received within this long are folded into one render (a replay brings thousands). */
const FOLD_BATCH_MS = 40;
/** Prompt packs read to find the agent's (the API's page size for lists). */
const PACK_LIST_LIMIT = 1_000;
/** How close to the bottom of the transcript (pixels) still counts as following it. */
const FOLLOW_SLACK_PX = 48;

/** The server-sent event types of a transcript (packages/agent/src/transcript.ts). */
const EVENT_TYPES = ['task', 'text', 'tool_call', 'tool_result', 'usage', 'outcome'] as const;

/** Why an action failed, as a sentence: the agent's refusals in its own words. */
function failure(error: unknown): string {
  return error instanceof ApiError ? runErrorSentence(error) : errorSentence(error);
}

/** What the Runs tab is given: one pod of an agent, who may start runs, and the run shown. */
interface RunsProps {
  pod: PodRef;
  agent: AgentDetails;
  canStart: boolean;
  /** The run shown (the address's `run`), or null. */
  selected: string | null;
  onSelect: (run: string | null) => void;
  /** The address's search that opens a workspace file in the Files tab. */
  fileSearch: (path: string) => string;
  /** A run ended: what it spent shows elsewhere. */
  onEnded: () => void;
}

/**
 * The Runs tab: the runs of one pod's agent (newest first), a form to start one, and the chosen
 * run's transcript as it happens. Without a model provider it says how to give the agent one.
 */
export function RunsPanel(props: RunsProps) {
  const { agent } = props;
  if (agent.provider === null || agent.provider === undefined) {
    return <ProviderMissing agent={agent.name} />;
  }
  return <RunsOfPod {...props} />;
}

function ProviderMissing({ agent }: { agent: string }) {
  return (
    <section className="card ws-runs-provider" aria-labelledby="runs-provider-title">
      <h3 id="runs-provider-title">Runs need a model provider</h3>
      <p>
        The agent <code>{agent}</code> names no model provider, so its pods run the sandbox alone
        (for clients that bring their own agent) and nothing here can run a task. Give its
        AgentRuntime a <code>spec.provider</code>: an OpenAI-compatible server (OpenAI, Azure
        OpenAI, vLLM, Ollama, llama.cpp, LiteLLM) or Anthropic, for example:
      </p>
      {/* Focusable so that keyboard users can scroll it (WCAG 2.1.1). */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex */}
      <pre className="ws-code" tabIndex={0} aria-label="Example of spec.provider">
        <code>{PROVIDER_EXAMPLE}</code>
      </pre>
      <p>
        The Secret holds the API key under <code>apiKey</code> (leave <code>apiKeySecretRef</code>{' '}
        out for a server that needs no key, such as a local Ollama). Providers, prices and run
        limits are described in <code>docs/agent.md</code>.
      </p>
    </section>
  );
}

function RunsOfPod({ pod, agent, canStart, selected, onSelect, fileSearch, onEnded }: RunsProps) {
  const list = useApi<RunList>(runsPath(pod));
  const { reload } = list;
  const busy =
    list.data !== undefined && (list.data.running !== null || list.data.queued.length > 0);

  // While a run is under way or waiting, the list (statuses, usage) is read again now and then.
  useEffect(() => {
    if (!busy || list.loading) return;
    const timer = setTimeout(reload, LIST_REFRESH_MS);
    return () => clearTimeout(timer);
  }, [busy, list.loading, list.data, reload]);

  const ended = useCallback(() => {
    reload();
    onEnded();
  }, [reload, onEnded]);

  const runs = newestFirst(list.data?.runs ?? []);
  const chosen = runs.find((r) => r.id === selected);
  const status =
    chosen !== undefined && list.data !== undefined ? runStatus(chosen, list.data) : undefined;

  return (
    <div className="ws-runs">
      {canStart && (
        <StartForm
          pod={pod}
          workspace={pod.workspace}
          pack={agent.promptPack}
          onStarted={(run) => {
            reload();
            onSelect(run.id);
          }}
        />
      )}
      <div className="ws-runs-body">
        <section className="ws-runs-list card" aria-labelledby="runs-title">
          <div className="ws-section-head">
            <h3 id="runs-title">Runs</h3>
            <button type="button" className="button small" onClick={reload}>
              Refresh runs
            </button>
          </div>
          {list.error !== undefined ? (
            <ErrorState
              title="The runs could not be loaded"
              error={failure(list.error)}
              retry={reload}
            />
          ) : list.data === undefined ? (
            <Loading label="Loading the runs" />
          ) : runs.length === 0 ? (
            <Empty title="No runs yet">
              <p>
                {canStart
                  ? 'Start one above: the agent works on one task at a time, others wait in line.'
                  : 'Runs started by the workspace’s editors and owners appear here.'}
              </p>
            </Empty>
          ) : (
            <ol className="ws-run-list" aria-labelledby="runs-title">
              {runs.map((run) => (
                <RunEntry
                  key={run.id}
                  run={run}
                  status={runStatus(run, list.data!)}
                  current={run.id === selected}
                  onOpen={() => onSelect(run.id)}
                />
              ))}
            </ol>
          )}
        </section>
        <section className="ws-run-view card" aria-label="Run">
          {selected === null ? (
            <Empty title="No run open">
              <p>Choose a run in the list to follow its transcript here.</p>
            </Empty>
          ) : (
            <RunView
              key={selected}
              pod={pod}
              id={selected}
              listed={chosen}
              status={status}
              canCancel={canStart}
              fileSearch={fileSearch}
              onChanged={reload}
              onEnded={ended}
            />
          )}
        </section>
      </div>
    </div>
  );
}

function RunEntry({
  run,
  status,
  current,
  onOpen,
}: {
  run: Run;
  status: RunStatus;
  current: boolean;
  onOpen: () => void;
}) {
  return (
    <li className="ws-run-entry">
      <button
        type="button"
        className="ws-run-open"
        aria-current={current ? 'true' : undefined}
        onClick={onOpen}
      >
        <span className="ws-run-task">
          {run.prompt !== undefined && <span className="ws-run-prompt">{run.prompt.name}: </span>}
          {taskExcerpt(run.task)}
        </span>
        <span className="ws-run-facts">
          <span className={`badge ${statusTone(status)}`}>{statusText(status)}</span>{' '}
          {run.startedBy ?? 'someone'}, <When value={run.createdAt} /> · {usageText(run.usage)}
        </span>
      </button>
    </li>
  );
}

function StartForm({
  pod,
  workspace,
  pack,
  onStarted,
}: {
  pod: PodRef;
  workspace: string;
  pack: string;
  onStarted: (run: Run) => void;
}) {
  const id = useId();
  const packs = useApi<PromptPackList>(
    `${apiPath(workspace, 'promptpacks')}?limit=${PACK_LIST_LIMIT}`,
  );
  const prompts = packs.data?.promptPacks.find((p) => p.name === pack)?.prompts ?? [];
  const [mode, setMode] = useState<RunDraft['mode']>('task');
  const [task, setTask] = useState('');
  const [promptName, setPromptName] = useState('');
  const [values, setValues] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<{ text: string; budget: boolean } | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const chosenPrompt = prompts.find((p) => p.name === promptName) ?? prompts[0];
  const variables = chosenPrompt === undefined ? [] : variablesOf(chosenPrompt.content);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const draft: RunDraft =
      mode === 'task' ? { mode, task } : { mode, name: chosenPrompt?.name ?? '', values };
    const checked = startRunOf(draft, prompts);
    setDone(null);
    if (!checked.ok) return setProblem({ text: checked.problem, budget: false });
    setProblem(null);
    setBusy(true);
    api<StartedRun>(runsPath(pod), { method: 'POST', body: checked.value })
      .then(({ run, position }) => {
        setDone(
          position === 0
            ? 'The run started.'
            : `The run is queued: ${position} ${position === 1 ? 'run is' : 'runs are'} ahead of it.`,
        );
        if (mode === 'task') setTask('');
        onStarted(run);
      })
      .catch((error: unknown) =>
        setProblem({
          text: failure(error),
          budget: error instanceof ApiError && error.code === 'budget_exceeded',
        }),
      )
      .finally(() => setBusy(false));
  };

  return (
    <form className="card ws-run-form" aria-labelledby={`${id}-title`} onSubmit={submit}>
      <h3 id={`${id}-title`}>Start a run</h3>
      <fieldset className="ws-run-modes">
        <legend>What to run</legend>
        <label>
          <input
            type="radio"
            name={`${id}-mode`}
            value="task"
            checked={mode === 'task'}
            onChange={() => setMode('task')}
          />{' '}
          Free text
        </label>
        <label>
          <input
            type="radio"
            name={`${id}-mode`}
            value="prompt"
            checked={mode === 'prompt'}
            disabled={prompts.length === 0}
            onChange={() => setMode('prompt')}
          />{' '}
          A prompt of the pack <code>{pack}</code>
          {packs.data !== undefined && prompts.length === 0 && (
            <span className="muted"> (it has none)</span>
          )}
        </label>
      </fieldset>
      {mode === 'task' ? (
        <div className="field">
          <label htmlFor={`${id}-task`}>Task</label>
          <textarea
            id={`${id}-task`}
            value={task}
            rows={5}
            aria-describedby={`${id}-task-hint`}
            onChange={(e) => setTask(e.target.value)}
          />
          <span id={`${id}-task-hint`} className="hint">
            What the agent should do, in plain words. It works in this pod’s workspace with the
            sandbox’s tools.
          </span>
        </div>
      ) : (
        <>
          <div className="field">
            <label htmlFor={`${id}-prompt`}>Prompt</label>
            <select
              id={`${id}-prompt`}
              value={chosenPrompt?.name ?? ''}
              onChange={(e) => {
                setPromptName(e.target.value);
                setValues({});
              }}
            >
              {prompts.map((p) => (
                <option key={p.name} value={p.name}>
                  {p.name}
                </option>
              ))}
            </select>
          </div>
          {chosenPrompt !== undefined && (
            <details className="ws-run-template">
              <summary>The prompt’s text</summary>
              <pre className="ws-run-pre">{chosenPrompt.content}</pre>
            </details>
          )}
          {variables.length === 0 ? (
            <p className="muted ws-small">This prompt has no variables.</p>
          ) : (
            variables.map((name) => (
              <div className="field" key={`${chosenPrompt?.name ?? ''}/${name}`}>
                <label htmlFor={`${id}-var-${name}`}>{name}</label>
                <textarea
                  id={`${id}-var-${name}`}
                  className="ws-run-variable"
                  rows={2}
                  value={values[name] ?? ''}
                  onChange={(e) => setValues((v) => ({ ...v, [name]: e.target.value }))}
                />
              </div>
            ))
          )}
        </>
      )}
      {packs.error !== undefined && mode === 'prompt' && (
        <p className="ws-error" role="alert">
          The prompt pack could not be read: {errorSentence(packs.error)}
        </p>
      )}
      <div className="actions">
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? 'Starting…' : 'Start the run'}
        </button>
      </div>
      {problem !== null && (
        <div className={problem.budget ? 'notice error ws-run-refused' : 'ws-error'} role="alert">
          {problem.budget ? <strong>{problem.text}</strong> : problem.text}
        </div>
      )}
      <StatusMessage message={done} />
    </form>
  );
}

type Connection = FeedConnection | 'ended';

const CONNECTION_TEXT: Record<Connection, string> = {
  connecting: 'Connecting to the run…',
  live: 'Live: the transcript follows the run.',
  reconnecting: 'The connection dropped; reconnecting. Nothing said meanwhile is lost.',
  failed: 'The transcript cannot be followed: the agent cannot be reached.',
  ended: 'The run has ended.',
};

function foldAll(view: TranscriptView, events: readonly TranscriptEvent[]): TranscriptView {
  return foldEvents(events, view);
}

/** One run: what was asked, its transcript as it happens, what it spent, how it ended. */
function RunView({
  pod,
  id,
  listed,
  status: listedStatus,
  canCancel,
  fileSearch,
  onChanged,
  onEnded,
}: {
  pod: PodRef;
  id: string;
  /** The run as the list has it, when it does. */
  listed: Run | undefined;
  status: RunStatus | undefined;
  canCancel: boolean;
  fileSearch: (path: string) => string;
  onChanged: () => void;
  onEnded: () => void;
}) {
  const record = useApi<{ run: Run }>(runsPath(pod, { id }));
  const run = record.data?.run ?? listed;
  const [view, dispatch] = useReducer(foldAll, EMPTY_TRANSCRIPT);
  const { connection, setConnection, round, reconnect } = useFeedConnection<'ended'>();
  const [cancelling, setCancelling] = useState(false);
  const [cancelError, setCancelError] = useState<string | null>(null);
  const url = runsPath(pod, { id, route: 'events' });
  const endedRef = useRef(onEnded);
  useEffect(() => {
    endedRef.current = onEnded;
  }, [onEnded]);
  const reloadRecord = record.reload;

  useEffect(() => {
    const source = new EventSource(url, { withCredentials: true });
    let pending: TranscriptEvent[] = [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      timer = undefined;
      const events = pending;
      pending = [];
      if (events.length > 0) dispatch(events);
    };
    source.addEventListener('open', () => setConnection('live'));
    for (const type of EVENT_TYPES) {
      source.addEventListener(type, (event: MessageEvent<string>) => {
        const parsed = parseTranscriptEvent(event.lastEventId, event.data);
        if (parsed === undefined) return;
        pending.push(parsed);
        if (parsed.type === 'outcome') {
          // The stream ends after the outcome: a reconnection would only replay the end.
          source.close();
          if (timer !== undefined) clearTimeout(timer);
          flush();
          setConnection('ended');
          reloadRecord();
          endedRef.current();
          return;
        }
        timer ??= setTimeout(flush, FOLD_BATCH_MS);
      });
    }
    source.addEventListener('error', () => {
      if (source.readyState === EventSource.CLOSED) setConnection('failed');
      else setConnection('reconnecting');
    });
    return () => {
      source.close();
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [url, round, reloadRecord, setConnection]);

  const outcome = view.outcome ?? run?.outcome ?? null;
  const status: RunStatus | undefined = outcome !== null ? outcome.status : listedStatus;
  const usage = view.usage.calls > 0 || run === undefined ? view.usage : run.usage;

  const cancel = () => {
    setCancelling(true);
    setCancelError(null);
    api<{ run: Run }>(runsPath(pod, { id, route: 'cancel' }), { method: 'POST' })
      .then(() => {
        reloadRecord();
        onChanged();
      })
      .catch((error: unknown) => setCancelError(failure(error)))
      .finally(() => setCancelling(false));
  };

  // The transcript keeps its newest lines in view while the reader is at its end.
  const log = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  useLayoutEffect(() => {
    const el = log.current;
    if (el !== null && following.current) el.scrollTop = el.scrollHeight;
  }, [view]);

  return (
    <div className="ws-run">
      <div className="ws-run-head">
        <h3 id={`run-${id}-title`} className="ws-run-title">
          Run <code>{id.slice(0, 8)}</code>{' '}
          {status !== undefined && (
            <span className={`badge ${statusTone(status)}`}>{statusText(status)}</span>
          )}
        </h3>
        {canCancel && status !== undefined && isCancellable(status) && (
          <button
            type="button"
            className="button small danger"
            disabled={cancelling}
            onClick={cancel}
          >
            {cancelling ? 'Cancelling…' : 'Cancel the run'}
          </button>
        )}
      </div>
      {cancelError !== null && (
        <p className="ws-error" role="alert">
          {cancelError}
        </p>
      )}
      {record.error !== undefined && run === undefined && (
        <ErrorState
          title="The run could not be loaded"
          error={failure(record.error)}
          retry={record.reload}
        />
      )}
      {run !== undefined && (
        <dl className="facts ws-run-facts-list">
          <dt>Started by</dt>
          <dd>{run.startedBy ?? '—'}</dd>
          <dt>Asked</dt>
          <dd>
            <When value={run.createdAt} />
          </dd>
          {run.prompt !== undefined && (
            <>
              <dt>Prompt</dt>
              <dd>
                <code>{run.prompt.name}</code>
                {Object.keys(run.prompt.variables).length > 0 && (
                  <ul className="ws-run-variables">
                    {Object.entries(run.prompt.variables).map(([name, value]) => (
                      <li key={name}>
                        <code>{name}</code>: {value}
                      </li>
                    ))}
                  </ul>
                )}
              </dd>
            </>
          )}
          <dt>Usage</dt>
          <dd>
            {usageText(usage)}
            {view.usage.calls > 0 &&
              ` over ${view.usage.calls} model ${view.usage.calls === 1 ? 'call' : 'calls'}`}
          </dd>
        </dl>
      )}
      <ConnectionState
        connection={connection}
        text={CONNECTION_TEXT[connection]}
        onReconnect={reconnect}
      />
      <div
        ref={log}
        className="ws-run-log"
        role="log"
        aria-live="polite"
        aria-label="Transcript"
        // Focusable so that keyboard users can scroll it (WCAG 2.1.1).
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
        tabIndex={0}
        onScroll={(e) => {
          const el = e.currentTarget;
          following.current = el.scrollHeight - el.scrollTop - el.clientHeight < FOLLOW_SLACK_PX;
        }}
      >
        <div className="ws-run-task-block">
          <span className="ws-label">Task</span>
          <p className="ws-run-pre">{view.task ?? run?.task ?? ''}</p>
        </div>
        {view.omitted > 0 && (
          <p className="muted ws-small">
            {view.omitted} earlier {view.omitted === 1 ? 'step is' : 'steps are'} not shown.
          </p>
        )}
        {view.items.map((item) => (
          <TranscriptEntry
            key={item.seq}
            item={item}
            ended={outcome !== null}
            fileSearch={fileSearch}
          />
        ))}
        {view.items.length === 0 && outcome === null && (
          <p className="muted">
            {status === 'queued' ? 'Waiting for the runs ahead of it…' : 'Nothing said yet…'}
          </p>
        )}
      </div>
      {outcome !== null && (
        <div
          className={`notice ${outcome.status === 'completed' ? '' : outcome.status === 'failed' || outcome.status === 'blocked' ? 'error' : 'warn'} ws-run-outcome`}
          role="status"
        >
          <strong>{outcomeSentence(outcome)}</strong>
        </div>
      )}
    </div>
  );
}

function TranscriptEntry({
  item,
  ended,
  fileSearch,
}: {
  item: TranscriptItem;
  /** The run ended: a call without a result never got one. */
  ended: boolean;
  fileSearch: (path: string) => string;
}) {
  if (item.kind === 'text') {
    return (
      <div className="ws-run-text">
        {/* Text, never markup: React escapes it; white-space keeps its lines. */}
        <p className="ws-run-pre">{item.text}</p>
        {item.cut && <p className="muted ws-small">(The rest of this answer is not shown.)</p>}
      </div>
    );
  }
  const summary = callSummary(item.name, item.arguments);
  const file = touchedFile(item);
  const state =
    item.result === null
      ? ended
        ? 'unanswered'
        : 'running'
      : item.result.isError
        ? 'error'
        : 'done';
  return (
    <div className={`ws-run-tool ws-run-tool-${state}`}>
      <details>
        <summary>
          <span className="ws-run-tool-name">{item.name || 'A tool'}</span>
          {summary !== '' && (
            <>
              {' '}
              <code className="ws-run-summary">{summary}</code>
            </>
          )}
          {state === 'running' && <span className="muted ws-small"> running…</span>}
          {state === 'unanswered' && <span className="muted ws-small"> no result</span>}
          {state === 'error' && <span className="badge bad ws-run-badge">error</span>}
          {item.result?.truncated === true && (
            <span className="badge warn ws-run-badge">truncated</span>
          )}
        </summary>
        <div className="ws-run-tool-body">
          <p className="ws-label">Arguments</p>
          <pre className="ws-run-json">{prettyArguments(item.arguments)}</pre>
          <p className="ws-label">Result</p>
          {item.result === null ? (
            <p className="muted">
              {ended ? 'The run ended before this call answered.' : 'No result yet.'}
            </p>
          ) : (
            <>
              <pre className={item.result.isError ? 'ws-run-json ws-run-error' : 'ws-run-json'}>
                {item.result.text === '' ? '(empty)' : item.result.text}
              </pre>
              {item.result.truncated && (
                <p className="muted ws-small">
                  Truncated: the agent cut this result for the model, as the marker in it says.
                </p>
              )}
            </>
          )}
        </div>
      </details>
      {file !== null && (
        <p className="ws-run-file ws-small">
          {item.name === 'Read' ? 'Read' : 'Changed'}{' '}
          <Link to={{ search: fileSearch(file) }} title="Open in Files">
            {file}
          </Link>
        </p>
      )}
    </div>
  );
}
