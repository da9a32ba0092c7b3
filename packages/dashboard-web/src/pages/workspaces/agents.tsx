import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { api, seg } from '../../api';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { Empty, ErrorState, Loading } from '../../ui/states';
import { useApi } from '../../ui/use-api';
import {
  agentMessages,
  agentRowKey,
  chosenPack,
  hasRowActions,
  newAgentOf,
  noAgentsHint,
  packLabel,
  replicasCeiling,
  scaleTarget,
  shownOfTotal,
} from './agent-rules';
import { apiPath, isCode } from './errors';
import { OBJECT_NAME_HINT } from './object-names';
import {
  ActionError,
  FocusHeading,
  PhaseBadge,
  StatusMessage,
  useAction,
  useFocusOnMount,
  useReturnFocus,
} from './parts';
import type { Agent, AgentList, PromptPackList } from './types';
import type { WorkspaceViewProps } from './workspace-view';

/** The workspace's agents: scale, create and delete them where allowed. */
export function AgentsTab({ workspace, reloadWorkspace }: WorkspaceViewProps) {
  const { permissions } = workspace;
  const agents = useApi<AgentList>(`${apiPath(workspace.name, 'agents')}?limit=1000`);
  const [status, setStatus] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<string | null>(null);
  const removal = useAction();
  const opener = useReturnFocus<HTMLButtonElement>(creating);
  const writes = hasRowActions(permissions);
  const maxReplicas = workspace.quotas.agents?.maxReplicasPerAgent;

  const done = (message: string) => {
    setStatus(message);
    agents.reload();
  };
  const failed = (error: unknown) => {
    if (isCode(error, 'workspace_suspended')) reloadWorkspace();
  };

  const remove = async () => {
    if (deleting === null) return;
    const name = deleting;
    const result = await removal.run(async () => {
      await api(apiPath(workspace.name, 'agents', name), { method: 'DELETE' });
      return agentMessages.deleted(name);
    });
    if (result.ok) {
      setDeleting(null);
      done(agentMessages.deleted(name));
    } else {
      failed(result.error);
    }
  };

  return (
    <section aria-labelledby="agents-title">
      <div className="ws-section-head">
        <FocusHeading level={2} id="agents-title">
          Agents
        </FocusHeading>
        {permissions.createAgents && !creating && (
          <button
            ref={opener}
            type="button"
            className="button primary"
            onClick={() => {
              setStatus(null);
              setCreating(true);
            }}
          >
            Create agent
          </button>
        )}
      </div>
      <StatusMessage message={status} />
      {creating && (
        <CreateAgentForm
          workspace={workspace.name}
          maxReplicas={maxReplicas}
          onCancel={() => setCreating(false)}
          onCreated={(name) => {
            setCreating(false);
            done(agentMessages.created(name));
          }}
          onFailed={failed}
        />
      )}
      {agents.error !== undefined && agents.data === undefined ? (
        <ErrorState
          title="The agents could not be loaded"
          error={agents.error}
          retry={agents.reload}
        />
      ) : agents.data === undefined ? (
        <Loading label="Loading the agents" />
      ) : agents.data.agents.length === 0 ? (
        <Empty title="No agents yet">
          <p>
            An agent runs replicas of a sandbox that follow a prompt pack.
            {noAgentsHint(permissions.createAgents)}
          </p>
        </Empty>
      ) : (
        <div className="table-wrap">
          <table className="ws-agents ws-stack">
            <caption className="ws-visually-hidden">
              Agents of {workspace.displayName}
              {shownOfTotal(agents.data.agents.length, agents.data.total)}
            </caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Prompt pack</th>
                <th scope="col">Ready / wanted</th>
                <th scope="col">Phase</th>
                <th scope="col">Model</th>
                <th scope="col">Budget</th>
                {writes && <th scope="col">Actions</th>}
              </tr>
            </thead>
            <tbody>
              {agents.data.agents.map((agent) => (
                <AgentRow
                  key={agentRowKey(agent)}
                  agent={agent}
                  workspace={workspace.name}
                  canScale={permissions.scaleAgents}
                  canDelete={permissions.deleteAgents}
                  maxReplicas={maxReplicas}
                  onScaled={(replicas) => done(agentMessages.scaled(agent.name, replicas))}
                  onFailed={failed}
                  onDelete={() => {
                    removal.clear();
                    setStatus(null);
                    setDeleting(agent.name);
                  }}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete the agent “${deleting ?? ''}”?`}
        confirmLabel="Delete agent"
        danger
        busy={removal.busy}
        onConfirm={() => {
          void remove();
        }}
        onCancel={() => setDeleting(null)}
      >
        <p>Its pods stop and its replicas are gone. This cannot be undone.</p>
        <ActionError error={removal.error} what={`the agent “${deleting ?? ''}”`} />
      </ConfirmDialog>
    </section>
  );
}

function AgentRow({
  agent,
  workspace,
  canScale,
  canDelete,
  maxReplicas,
  onScaled,
  onFailed,
  onDelete,
}: {
  agent: Agent;
  workspace: string;
  canScale: boolean;
  canDelete: boolean;
  maxReplicas: number | undefined;
  onScaled: (replicas: number) => void;
  onFailed: (error: unknown) => void;
  onDelete: () => void;
}) {
  const id = useId();
  const [replicas, setReplicas] = useState(String(agent.replicas));
  const scale = useAction();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const target = scaleTarget(replicas);
    if (!target.ok) {
      scale.fail(new Error(target.problem));
      return;
    }
    const wanted = target.value;
    const result = await scale.run(async () => {
      await api(apiPath(workspace, 'agents', agent.name), {
        method: 'PATCH',
        body: { replicas: wanted },
      });
      return '';
    });
    if (result.ok) onScaled(wanted);
    else onFailed(result.error);
  };

  return (
    <tr>
      <th scope="row">
        <Link to={`/workspaces/${seg(workspace)}/agents/${seg(agent.name)}`}>{agent.name}</Link>
      </th>
      <td data-label="Prompt pack">{agent.promptPack}</td>
      <td data-label="Ready / wanted">
        {agent.readyReplicas} / {agent.replicas}
      </td>
      <td data-label="Phase">
        <PhaseBadge phase={agent.phase} />
      </td>
      <td data-label="Model">{agent.model ?? <span className="muted">default</span>}</td>
      <td data-label="Budget">
        {agent.pausedForBudget ? (
          <span className="badge bad">Paused for budget</span>
        ) : (
          <span className="muted">—</span>
        )}
      </td>
      {(canScale || canDelete) && (
        <td className="ws-row-actions">
          <div className="actions">
            {canScale && (
              <form className="ws-inline-form" noValidate onSubmit={(e) => void submit(e)}>
                <label htmlFor={id} className="ws-visually-hidden">
                  Replicas of {agent.name}
                </label>
                <input
                  id={id}
                  type="number"
                  inputMode="numeric"
                  min={0}
                  max={replicasCeiling(maxReplicas)}
                  step={1}
                  value={replicas}
                  onChange={(e) => setReplicas(e.target.value)}
                  aria-invalid={scale.error !== null ? true : undefined}
                />
                <button
                  type="submit"
                  className="button small"
                  disabled={scale.busy}
                  aria-label={`Save replicas of ${agent.name}`}
                >
                  Save
                </button>
              </form>
            )}
            {canDelete && (
              <button
                type="button"
                className="button small danger"
                onClick={onDelete}
                aria-label={`Delete ${agent.name}`}
              >
                Delete
              </button>
            )}
          </div>
          <ActionError error={scale.error} what={`the agent “${agent.name}”`} />
        </td>
      )}
    </tr>
  );
}

/** The form creating an agent: a name, a prompt pack of the workspace, replicas, a model. */
function CreateAgentForm({
  workspace,
  maxReplicas,
  onCancel,
  onCreated,
  onFailed,
}: {
  workspace: string;
  maxReplicas: number | undefined;
  onCancel: () => void;
  onCreated: (name: string) => void;
  onFailed: (error: unknown) => void;
}) {
  const id = useId();
  const packs = useApi<PromptPackList>(`${apiPath(workspace, 'promptpacks')}?limit=1000`);
  const [name, setName] = useState('');
  const [pack, setPack] = useState('');
  const [replicas, setReplicas] = useState('1');
  const [model, setModel] = useState('');
  const create = useAction();
  const first = useFocusOnMount<HTMLInputElement>();
  const choices = packs.data?.promptPacks ?? [];
  const chosen = chosenPack(pack, choices);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = newAgentOf({ name, promptPack: chosen, replicas, model });
    if (!checked.ok) {
      create.fail(new Error(checked.problem));
      return;
    }
    const body = checked.value;
    const result = await create.run(async () => {
      await api(apiPath(workspace, 'agents'), { method: 'POST', body });
      return '';
    });
    if (result.ok) onCreated(name);
    else onFailed(result.error);
  };

  return (
    <form
      className="card ws-form"
      noValidate
      aria-labelledby={`${id}-title`}
      onSubmit={(e) => void submit(e)}
    >
      <h3 id={`${id}-title`}>New agent</h3>
      <div className="ws-form-grid">
        <div className="field">
          <label htmlFor={`${id}-name`}>Name</label>
          <input
            ref={first}
            id={`${id}-name`}
            value={name}
            onChange={(e) => setName(e.target.value)}
            autoComplete="off"
            spellCheck={false}
            required
            aria-describedby={`${id}-name-hint`}
          />
          <span id={`${id}-name-hint`} className="hint">
            {OBJECT_NAME_HINT}
          </span>
        </div>
        <div className="field">
          {choices.length > 0 ? (
            <>
              <label htmlFor={`${id}-pack`}>Prompt pack</label>
              <select id={`${id}-pack`} value={chosen} onChange={(e) => setPack(e.target.value)}>
                {choices.map((p) => (
                  <option key={p.name} value={p.name}>
                    {packLabel(p)}
                  </option>
                ))}
              </select>
            </>
          ) : (
            <>
              <span className="ws-label">Prompt pack</span>
              {packs.error !== undefined ? (
                <ActionError error={packs.error} what="the prompt packs" />
              ) : packs.data === undefined ? (
                <Loading label="Loading the prompt packs" />
              ) : (
                <p className="hint">
                  The workspace has no prompt packs, and an agent follows one.{' '}
                  <Link to={`/workspaces/${seg(workspace)}/promptpacks`}>Create a prompt pack</Link>{' '}
                  first.
                </p>
              )}
            </>
          )}
        </div>
        <div className="field">
          <label htmlFor={`${id}-replicas`}>Replicas</label>
          <input
            id={`${id}-replicas`}
            type="number"
            inputMode="numeric"
            min={0}
            max={replicasCeiling(maxReplicas)}
            step={1}
            value={replicas}
            onChange={(e) => setReplicas(e.target.value)}
          />
          {maxReplicas !== undefined && (
            <span className="hint">The workspace allows at most {maxReplicas} per agent.</span>
          )}
        </div>
        <div className="field">
          <label htmlFor={`${id}-model`}>Model (optional)</label>
          <input
            id={`${id}-model`}
            value={model}
            onChange={(e) => setModel(e.target.value)}
            placeholder="claude-sonnet-4"
            autoComplete="off"
            spellCheck={false}
          />
        </div>
      </div>
      <ActionError error={create.error} what={`an agent named “${name}”`} />
      <div className="actions">
        <button type="submit" className="button primary" disabled={create.busy}>
          {create.busy ? 'Creating…' : 'Create'}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
