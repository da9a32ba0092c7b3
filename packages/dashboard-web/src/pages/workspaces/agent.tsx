import {
  Suspense,
  lazy,
  useCallback,
  useId,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { seg } from '../../api';
import { formatTime } from '../../ui/format';
import { Empty, ErrorState, Loading } from '../../ui/states';
import { useApi } from '../../ui/use-api';
import {
  activeTab,
  chosenPod,
  noPodText,
  podsByName,
  showsPod as tabShowsPod,
  tabIndexAfterKey,
  tabParam,
  tabsFor,
  withParams,
  type TabKey,
} from './agent-tabs';
import { ChangesPanel } from './changes';
import { ConnectPanel } from './connect';
import { apiPath, errorSentence, isCode } from './errors';
import { LogViewer } from './log-viewer';
import { providerText, runLimitsText } from './run-rules';
import { RunsPanel } from './runs';
import { usd } from './budget-rules';
import { ConditionList, FocusHeading, PhaseBadge, When } from './parts';
import type { PodRef } from './sandbox-door';
import type { AgentDetails, EventList, WorkspacePermissions } from './types';
import type { WorkspaceViewProps } from './workspace-view';

// The terminal (xterm.js) and the viewer's highlighting (highlight.js) load when first opened.
const FilesPanel = lazy(() => import('./files').then((m) => ({ default: m.FilesPanel })));
const TerminalPanel = lazy(() => import('./terminal').then((m) => ({ default: m.TerminalPanel })));

/**
 * `agents/:agentName`: one agent in tabs: its overview (facts, pods, events), its workspace
 * (files, changes, a terminal) and its runs on the pod chosen, how to connect to it, and its log.
 * The tab, the pod, the open file and the open run are in the address
 * (`?tab=files&pod=writer-1&path=src/a.ts`, `?tab=runs&run=<id>`).
 */
export function AgentPage({ workspace, reloadWorkspace }: WorkspaceViewProps) {
  const { agentName = '' } = useParams();
  const path = apiPath(workspace.name, 'agents', agentName);
  const details = useApi<{ agent: AgentDetails }>(path);
  const agent = details.data?.agent;
  const reloadAgent = details.reload;
  // What a run spent shows in the agent's facts and the workspace's cost once it ends.
  const onRunEnded = useCallback(() => {
    reloadAgent();
    reloadWorkspace();
  }, [reloadAgent, reloadWorkspace]);
  const back = `/workspaces/${seg(workspace.name)}/agents`;

  return (
    <section aria-labelledby="agent-title" className="ws-agent">
      <p className="ws-breadcrumb">
        <Link to={back}>
          <span aria-hidden="true">← </span>All agents
        </Link>
      </p>
      <div className="ws-section-head">
        <FocusHeading level={2} id="agent-title">
          Agent <code>{agentName}</code>
        </FocusHeading>
        {agent !== undefined && (
          <button type="button" className="button" onClick={details.reload}>
            Refresh
          </button>
        )}
      </div>
      {details.error !== undefined && agent === undefined ? (
        isCode(details.error, 'not_found') ? (
          <div className="state state-error" role="alert">
            <strong>No such agent</strong>
            <p>
              The workspace has no agent named “{agentName}”: it may have been deleted.{' '}
              <Link to={back}>See all agents</Link>.
            </p>
          </div>
        ) : (
          <ErrorState
            title="The agent could not be loaded"
            error={errorSentence(details.error)}
            retry={details.reload}
          />
        )
      ) : agent === undefined ? (
        <Loading label="Loading the agent" />
      ) : (
        <AgentTabs
          workspace={workspace.name}
          agent={agent}
          permissions={workspace.permissions}
          onRunEnded={onRunEnded}
          overview={<AgentOverview agent={agent} workspace={workspace.name} path={path} />}
        />
      )}
    </section>
  );
}

function AgentTabs({
  workspace,
  agent,
  permissions,
  onRunEnded,
  overview,
}: {
  workspace: string;
  agent: AgentDetails;
  permissions: WorkspacePermissions;
  onRunEnded: () => void;
  overview: ReactNode;
}) {
  const id = useId();
  const [params, setParams] = useSearchParams();
  const tabs = tabsFor(permissions);
  const active = activeTab(tabs, params.get('tab'));
  const pods = podsByName(agent.pods);
  const podNames = pods.map((p) => p.name);
  const podName = chosenPod(agent.pods, params.get('pod'));
  const openPath = params.get('path');
  const openRun = params.get('run');
  const tabRefs = useRef(new Map<TabKey, HTMLButtonElement>());

  // Panels stay mounted once opened, so a shell or the feed of changes lives on behind another tab.
  const [visited, setVisited] = useState<ReadonlySet<TabKey>>(() => new Set([active]));
  if (!visited.has(active)) setVisited(new Set([...visited, active]));

  const update = useCallback(
    (changes: Record<string, string | null>) =>
      setParams((current) => withParams(current, changes), { replace: true }),
    [setParams],
  );

  const choose = (key: TabKey, focus = false) => {
    update({ tab: tabParam(key) });
    if (focus) tabRefs.current.get(key)?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const at = tabs.findIndex((t) => t.key === active);
    const to = tabs[tabIndexAfterKey(event.key, at, tabs.length)];
    if (to === undefined) return;
    event.preventDefault();
    choose(to.key, true);
  };

  // One object per pod: the panels reconnect only when the pod changes.
  const pod = useMemo<PodRef | undefined>(
    () => (podName === undefined ? undefined : { workspace, agent: agent.name, pod: podName }),
    [workspace, agent.name, podName],
  );
  // The Files tab reads its tree again after the change feed could not replay what it missed.
  const [treeRound, setTreeRound] = useState(0);
  const onReset = useCallback(() => setTreeRound((r) => r + 1), []);
  const openInFiles = useCallback((file: string) => update({ tab: 'files', path: file }), [update]);
  const selectFile = useCallback((file: string | null) => update({ path: file }), [update]);
  const selectRun = useCallback((run: string | null) => update({ run }), [update]);
  // A link (not a button): it opens in a new browser tab too.
  const fileSearch = useCallback(
    (file: string) =>
      `?${withParams(params, { tab: 'files', pod: podName ?? null, path: file }).toString()}`,
    [params, podName],
  );

  const needsPod = (content: ReactNode) =>
    pod === undefined ? (
      <Empty title="No pod runs">
        <p>{noPodText(agent.replicas)}</p>
      </Empty>
    ) : (
      content
    );

  const panel = (key: TabKey) => {
    switch (key) {
      case 'overview':
        return overview;
      case 'runs':
        return needsPod(
          pod !== undefined && (
            <RunsPanel
              key={pod.pod}
              pod={pod}
              agent={agent}
              canStart={permissions.startRuns === true}
              selected={openRun}
              onSelect={selectRun}
              fileSearch={fileSearch}
              onEnded={onRunEnded}
            />
          ),
        );
      case 'files':
        return needsPod(
          pod !== undefined && (
            <FilesPanel
              key={`${pod.pod}:${treeRound}`}
              pod={pod}
              selected={openPath}
              onSelect={selectFile}
            />
          ),
        );
      case 'changes':
        return needsPod(
          pod !== undefined && (
            <ChangesPanel key={pod.pod} pod={pod} onOpen={openInFiles} onReset={onReset} />
          ),
        );
      case 'terminal':
        return needsPod(pod !== undefined && <TerminalPanel key={pod.pod} pod={pod} />);
      case 'connect':
        return (
          <ConnectPanel
            workspace={workspace}
            agent={agent.name}
            pods={podNames}
            permissions={permissions}
          />
        );
      case 'log':
        return <LogViewer workspace={workspace} agent={agent.name} pods={agent.pods} />;
    }
  };

  const showsPod = tabShowsPod(active);
  return (
    <div className="ws-agent-tabs">
      <div className="ws-agent-tabbar">
        <div
          className="tabs ws-tablist"
          role="tablist"
          aria-label={`Views of the agent ${agent.name}`}
        >
          {tabs.map((tab) => (
            <button
              key={tab.key}
              ref={(el) => {
                if (el === null) tabRefs.current.delete(tab.key);
                else tabRefs.current.set(tab.key, el);
              }}
              type="button"
              role="tab"
              id={`${id}-tab-${tab.key}`}
              aria-controls={`${id}-panel-${tab.key}`}
              aria-selected={tab.key === active}
              tabIndex={tab.key === active ? 0 : -1}
              className={tab.key === active ? 'active' : undefined}
              onClick={() => choose(tab.key)}
              onKeyDown={onKeyDown}
            >
              {tab.label}
            </button>
          ))}
        </div>
        {showsPod && podNames.length > 1 && podName !== undefined && (
          <div className="field ws-pod-picker">
            <label htmlFor={`${id}-pod`}>Pod</label>
            <select
              id={`${id}-pod`}
              value={podName}
              onChange={(e) => update({ pod: e.target.value, path: null, run: null })}
            >
              {pods.map((p) => (
                <option key={p.name} value={p.name}>
                  {p.name} ({p.phase})
                </option>
              ))}
            </select>
          </div>
        )}
        {showsPod && podNames.length === 1 && podName !== undefined && (
          <p className="ws-pod-picker muted ws-small">
            Pod <code>{podName}</code>
          </p>
        )}
      </div>
      {tabs
        .filter((tab) => visited.has(tab.key))
        .map((tab) => (
          <div
            key={tab.key}
            role="tabpanel"
            id={`${id}-panel-${tab.key}`}
            aria-labelledby={`${id}-tab-${tab.key}`}
            hidden={tab.key !== active}
            className="ws-agent-panel"
          >
            <Suspense fallback={<Loading label={`Loading ${tab.label}`} />}>
              {panel(tab.key)}
            </Suspense>
          </div>
        ))}
    </div>
  );
}

function AgentOverview({
  agent,
  workspace,
  path,
}: {
  agent: AgentDetails;
  workspace: string;
  path: string;
}) {
  return (
    <>
      <div className="ws-overview">
        <section className="card ws-wide" aria-labelledby="agent-facts-title">
          <h3 id="agent-facts-title">Facts</h3>
          <dl className="facts ws-facts-2">
            <dt>Phase</dt>
            <dd>
              <PhaseBadge phase={agent.phase} />
              {agent.pausedForBudget && (
                <>
                  {' '}
                  <span className="badge bad">Paused for budget</span>
                </>
              )}
            </dd>
            <dt>Replicas</dt>
            <dd>
              {agent.readyReplicas} ready, {agent.currentReplicas} running, {agent.replicas} wanted
            </dd>
            <dt>Prompt pack</dt>
            <dd>
              <Link to={`/workspaces/${seg(workspace)}/promptpacks`}>{agent.promptPack}</Link>
            </dd>
            <dt>Model</dt>
            <dd>{agent.model ?? 'default'}</dd>
            <dt>Model provider</dt>
            <dd>{providerText(agent.provider)}</dd>
            <dt>Run limits</dt>
            <dd>{runLimitsText(agent.runLimits)}</dd>
            <dt>Image</dt>
            <dd>{agent.image === null ? 'default' : <code>{agent.image}</code>}</dd>
            <dt>Spent today</dt>
            <dd>{usd(agent.costUsage?.dailySpend ?? null)}</dd>
            <dt>Spent this month</dt>
            <dd>{usd(agent.costUsage?.monthlySpend ?? null)}</dd>
            <dt>Created</dt>
            <dd>{formatTime(agent.createdAt)}</dd>
            <dt>Environment</dt>
            <dd>
              {Object.keys(agent.env).length === 0 ? (
                'No variables'
              ) : (
                <ul className="ws-env">
                  {Object.entries(agent.env).map(([key, value]) => (
                    <li key={key}>
                      <code>
                        {key}={value}
                      </code>
                    </li>
                  ))}
                </ul>
              )}
            </dd>
          </dl>
        </section>
        <section className="card ws-wide" aria-labelledby="agent-conditions-title">
          <h3 id="agent-conditions-title">Conditions</h3>
          <ConditionList
            conditions={agent.conditions}
            caption={`Conditions of the agent ${agent.name}`}
          />
        </section>
      </div>

      <section aria-labelledby="pods-title">
        <h3 id="pods-title">Pods</h3>
        {agent.pods.length === 0 ? (
          <Empty title="No pods">
            <p>
              {agent.replicas === 0
                ? 'The agent is scaled to 0 replicas.'
                : 'No pod runs for this agent yet.'}
            </p>
          </Empty>
        ) : (
          <div className="table-wrap">
            <table className="ws-stack">
              <caption className="ws-visually-hidden">Pods of the agent {agent.name}</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Phase</th>
                  <th scope="col">Containers</th>
                  <th scope="col">Started</th>
                </tr>
              </thead>
              <tbody>
                {agent.pods.map((pod) => (
                  <tr key={pod.name}>
                    <th scope="row">
                      <code>{pod.name}</code>
                    </th>
                    <td data-label="Phase">
                      <PhaseBadge phase={pod.phase} />
                    </td>
                    <td data-label="Containers">{pod.containers.join(', ') || '—'}</td>
                    <td data-label="Started">
                      <When value={pod.startedAt} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <Events path={`${path}/events?limit=1000`} agent={agent.name} />
    </>
  );
}

function Events({ path, agent }: { path: string; agent: string }) {
  const events = useApi<EventList>(path);
  // The API answers oldest first; the newest matter most.
  const list = [...(events.data?.events ?? [])].reverse();
  return (
    <section aria-labelledby="events-title">
      <div className="ws-section-head">
        <h3 id="events-title">Events</h3>
        <button type="button" className="button small" onClick={events.reload}>
          Refresh events
        </button>
      </div>
      {events.error !== undefined ? (
        <ErrorState
          title="The events could not be loaded"
          error={errorSentence(events.error)}
          retry={events.reload}
        />
      ) : events.data === undefined ? (
        <Loading label="Loading the events" />
      ) : list.length === 0 ? (
        <Empty title="No events">
          <p>The cluster has recorded no events about this agent or its pods lately.</p>
        </Empty>
      ) : (
        <div className="table-wrap">
          <table className="ws-events ws-stack">
            <caption className="ws-visually-hidden">
              Events of the agent {agent} and its pods, newest first
            </caption>
            <thead>
              <tr>
                <th scope="col">Type</th>
                <th scope="col">Reason</th>
                <th scope="col">Message</th>
                <th scope="col">Object</th>
                <th scope="col">Count</th>
                <th scope="col">Last seen</th>
              </tr>
            </thead>
            <tbody>
              {list.map((e, i) => (
                <tr key={`${e.object.kind}/${e.object.name}/${e.reason}/${e.lastSeen ?? ''}/${i}`}>
                  <td data-label="Type">
                    <span className={`badge ${e.type === 'Warning' ? 'warn' : 'ok'}`}>
                      {e.type}
                    </span>
                  </td>
                  <td data-label="Reason">{e.reason || '—'}</td>
                  <td data-label="Message" className="ws-message">
                    {e.message || '—'}
                  </td>
                  <td data-label="Object">
                    {e.object.kind} <code>{e.object.name}</code>
                  </td>
                  <td data-label="Count">{e.count}</td>
                  <td data-label="Last seen">
                    <When value={e.lastSeen} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
