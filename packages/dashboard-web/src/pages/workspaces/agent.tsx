import { Link, useParams } from 'react-router';
import { seg } from '../../api';
import { formatTime } from '../../ui/format';
import { Empty, ErrorState, Loading } from '../../ui/states';
import { useApi } from '../../ui/use-api';
import { apiPath, errorSentence, isCode } from './errors';
import { LogViewer } from './log-viewer';
import { ConditionList, FocusHeading, PhaseBadge, When, usd } from './parts';
import type { AgentDetails, EventList } from './types';
import type { WorkspaceViewProps } from './workspace';

/** `agents/:agentName`: one agent, its pods, its log and its events. */
export function AgentPage({ workspace }: WorkspaceViewProps) {
  const { agentName = '' } = useParams();
  const path = apiPath(workspace.name, 'agents', agentName);
  const details = useApi<{ agent: AgentDetails }>(path);
  const agent = details.data?.agent;
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
                  {agent.readyReplicas} ready, {agent.currentReplicas} running, {agent.replicas}{' '}
                  wanted
                </dd>
                <dt>Prompt pack</dt>
                <dd>
                  <Link to={`/workspaces/${seg(workspace.name)}/promptpacks`}>
                    {agent.promptPack}
                  </Link>
                </dd>
                <dt>Model</dt>
                <dd>{agent.model ?? 'default'}</dd>
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

          <section aria-labelledby="logs-title">
            <h3 id="logs-title">Log</h3>
            <LogViewer workspace={workspace.name} agent={agent.name} pods={agent.pods} />
          </section>

          <Events path={`${path}/events?limit=1000`} agent={agent.name} />
        </>
      )}
    </section>
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
