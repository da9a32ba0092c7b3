import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { api } from '../../api';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { Empty, ErrorState, Loading } from '../../ui/states';
import { useApi } from '../../ui/use-api';
import { OBJECT_NAME, OBJECT_NAME_HINT } from './agents';
import { apiPath, errorSentence, isCode } from './errors';
import {
  ActionError,
  ConditionList,
  FocusHeading,
  PhaseBadge,
  StatusMessage,
  useAction,
  useReturnFocus,
} from './parts';
import type { ToolRegistry, ToolRegistryList } from './types';
import type { WorkspaceViewProps } from './workspace';

/** What a new registry's spec starts as: one HTTP handler to adapt. */
const TEMPLATE = {
  handlers: [
    {
      name: 'search',
      type: 'http',
      endpoint: { url: 'http://search.example.svc:8080/search' },
      tool: {
        name: 'search',
        description: 'Searches the documentation',
        inputSchema: { type: 'object', properties: { query: { type: 'string' } } },
      },
    },
  ],
};

/** The workspace's tool registries: their tools; where allowed, their specs edited as JSON. */
export function ToolRegistriesTab({ workspace, reloadWorkspace }: WorkspaceViewProps) {
  const allowed = workspace.permissions.modifyTools;
  const registries = useApi<ToolRegistryList>(
    `${apiPath(workspace.name, 'toolregistries')}?limit=1000`,
  );
  const [status, setStatus] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<string | null>(null);
  const [closed, setClosed] = useState<string | null>(null);
  const removal = useAction();
  const opener = useReturnFocus<HTMLButtonElement>(creating);
  const names = (registries.data?.toolRegistries ?? []).map((r) => r.name);

  const saved = (message: string) => {
    setStatus(message);
    setClosed(editing);
    setEditing(null);
    setCreating(false);
    registries.reload();
  };
  const failed = (error: unknown) => {
    if (isCode(error, 'workspace_suspended')) reloadWorkspace();
  };
  const remove = async () => {
    if (deleting === null) return;
    const name = deleting;
    const result = await removal.run(async () => {
      await api(apiPath(workspace.name, 'toolregistries', name), { method: 'DELETE' });
      return '';
    });
    if (result.ok) {
      setDeleting(null);
      saved(`Deleted the tool registry “${name}”.`);
    } else failed(result.error);
  };

  return (
    <section aria-labelledby="registries-title">
      <div className="ws-section-head">
        <FocusHeading level={2} id="registries-title">
          Tool registries
        </FocusHeading>
        {allowed && !creating && (
          <button
            ref={opener}
            type="button"
            className="button primary"
            onClick={() => {
              setStatus(null);
              setEditing(null);
              setCreating(true);
            }}
          >
            New tool registry
          </button>
        )}
      </div>
      <p className="muted ws-lede">
        The tools agents may call, from HTTP, gRPC, MCP and OpenAPI handlers.
      </p>
      <StatusMessage message={status} />
      {creating && (
        <ToolRegistryForm
          workspace={workspace.name}
          taken={names}
          onSaved={saved}
          onFailed={failed}
          onCancel={() => setCreating(false)}
        />
      )}
      {registries.error !== undefined && registries.data === undefined ? (
        <ErrorState
          title="The tool registries could not be loaded"
          error={errorSentence(registries.error)}
          retry={registries.reload}
        />
      ) : registries.data === undefined ? (
        <Loading label="Loading the tool registries" />
      ) : registries.data.toolRegistries.length === 0 ? (
        <Empty title="No tool registries yet">
          <p>
            {allowed
              ? 'Create one with “New tool registry” to offer tools to the agents.'
              : 'An editor or owner of the workspace can create one.'}
          </p>
        </Empty>
      ) : (
        <ul className="ws-items" aria-label="Tool registries">
          {registries.data.toolRegistries.map((registry) => (
            <li key={registry.name} className="card ws-item">
              {editing === registry.name ? (
                <ToolRegistryForm
                  workspace={workspace.name}
                  registry={registry}
                  taken={names}
                  onSaved={saved}
                  onFailed={failed}
                  onCancel={() => {
                    setClosed(registry.name);
                    setEditing(null);
                  }}
                />
              ) : (
                <ToolRegistryView
                  registry={registry}
                  allowed={allowed}
                  focusEdit={closed === registry.name}
                  onEdit={() => {
                    setStatus(null);
                    setCreating(false);
                    setEditing(registry.name);
                  }}
                  onDelete={() => {
                    setStatus(null);
                    removal.clear();
                    setDeleting(registry.name);
                  }}
                />
              )}
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete the tool registry “${deleting ?? ''}”?`}
        confirmLabel="Delete tool registry"
        danger
        busy={removal.busy}
        onConfirm={() => void remove()}
        onCancel={() => setDeleting(null)}
      >
        <p>Agents can no longer call its tools.</p>
        <ActionError error={removal.error} what={`the tool registry “${deleting ?? ''}”`} />
      </ConfirmDialog>
    </section>
  );
}

function ToolRegistryView({
  registry,
  allowed,
  focusEdit,
  onEdit,
  onDelete,
}: {
  registry: ToolRegistry;
  allowed: boolean;
  /** Back from editing it: the focus returns to its Edit button. */
  focusEdit: boolean;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const edit = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (focusEdit) edit.current?.focus();
  }, [focusEdit]);
  const handlers = Array.isArray(registry.spec.handlers) ? registry.spec.handlers.length : 0;
  return (
    <article aria-labelledby={`registry-${registry.name}`}>
      <div className="ws-item-head">
        <h3 id={`registry-${registry.name}`}>{registry.name}</h3>
        {allowed && (
          <div className="actions">
            <button
              ref={edit}
              type="button"
              className="button small"
              onClick={onEdit}
              aria-label={`Edit ${registry.name}`}
            >
              Edit
            </button>
            <button
              type="button"
              className="button small danger"
              onClick={onDelete}
              aria-label={`Delete ${registry.name}`}
            >
              Delete
            </button>
          </div>
        )}
      </div>
      <p className="ws-header-facts">
        <PhaseBadge phase={registry.phase} label={`Phase: ${registry.phase}`} />
        <span>
          {handlers} {handlers === 1 ? 'handler' : 'handlers'}
        </span>
        <span>{registry.discoveredToolsCount} discovered</span>
        <span>{registry.availableToolsCount} available</span>
      </p>
      <h4>Discovered tools</h4>
      {registry.discoveredTools.length === 0 ? (
        <p className="muted">No tools discovered yet.</p>
      ) : (
        <div className="table-wrap">
          <table className="ws-stack">
            <caption className="ws-visually-hidden">Tools of {registry.name}</caption>
            <thead>
              <tr>
                <th scope="col">Tool</th>
                <th scope="col">Handler</th>
                <th scope="col">Status</th>
                <th scope="col">Error</th>
              </tr>
            </thead>
            <tbody>
              {registry.discoveredTools.map((tool) => (
                <tr key={`${tool.handlerName}/${tool.name}`}>
                  <th scope="row">{tool.name}</th>
                  <td data-label="Handler">{tool.handlerName}</td>
                  <td data-label="Status">
                    <PhaseBadge phase={tool.status} />
                  </td>
                  <td data-label="Error" className="ws-message">
                    {tool.error ?? '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <details className="ws-details">
        <summary>Conditions and spec</summary>
        <ConditionList
          conditions={registry.conditions}
          caption={`Conditions of ${registry.name}`}
        />
        <pre className="ws-pre">{JSON.stringify(registry.spec, null, 2)}</pre>
      </details>
    </article>
  );
}

/** Creates a tool registry (no `registry`) or replaces one's spec, written as JSON. */
function ToolRegistryForm({
  workspace,
  registry,
  taken,
  onSaved,
  onFailed,
  onCancel,
}: {
  workspace: string;
  registry?: ToolRegistry;
  taken: string[];
  onSaved: (message: string) => void;
  onFailed: (error: unknown) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const isNew = registry === undefined;
  const [name, setName] = useState(registry?.name ?? '');
  const [text, setText] = useState(() => JSON.stringify(registry?.spec ?? TEMPLATE, null, 2));
  const save = useAction();
  const nameInput = useRef<HTMLInputElement>(null);
  const specInput = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    (isNew ? nameInput : specInput).current?.focus();
  }, [isNew]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (isNew && !OBJECT_NAME.test(name)) {
      save.fail(new Error(`The name is not a valid object name. ${OBJECT_NAME_HINT}`));
      return;
    }
    if (isNew && taken.includes(name)) {
      save.fail(
        new Error(
          `A tool registry named “${name}” already exists: edit it, or choose another name.`,
        ),
      );
      return;
    }
    let spec: unknown;
    try {
      spec = JSON.parse(text);
    } catch (error) {
      save.fail(
        new Error(`The spec is not valid JSON: ${error instanceof Error ? error.message : ''}`),
      );
      return;
    }
    if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) {
      save.fail(new Error('The spec must be a JSON object, such as {"handlers": […]}.'));
      return;
    }
    const result = await save.run(async () => {
      await api(apiPath(workspace, 'toolregistries', name), { method: 'PUT', body: { spec } });
      return '';
    });
    if (result.ok) {
      onSaved(
        isNew ? `Created the tool registry “${name}”.` : `Saved the tool registry “${name}”.`,
      );
    } else onFailed(result.error);
  };

  return (
    <form
      className={isNew ? 'card ws-form' : 'ws-form'}
      noValidate
      aria-labelledby={`${id}-title`}
      onSubmit={(e) => void submit(e)}
    >
      <h3 id={`${id}-title`}>{isNew ? 'New tool registry' : `Edit ${name}`}</h3>
      {isNew && (
        <div className="field">
          <label htmlFor={`${id}-name`}>Name</label>
          <input
            ref={nameInput}
            id={`${id}-name`}
            value={name}
            onChange={(e) => setName(e.target.value)}
            autoComplete="off"
            spellCheck={false}
            aria-describedby={`${id}-name-hint`}
          />
          <span id={`${id}-name-hint`} className="hint">
            {OBJECT_NAME_HINT}
          </span>
        </div>
      )}
      <div className="field">
        <label htmlFor={`${id}-spec`}>Spec (JSON)</label>
        <textarea
          ref={specInput}
          id={`${id}-spec`}
          className="ws-json"
          value={text}
          rows={16}
          spellCheck={false}
          onChange={(e) => setText(e.target.value)}
          aria-describedby={`${id}-spec-hint`}
          aria-invalid={save.error !== null ? true : undefined}
        />
        <span id={`${id}-spec-hint`} className="hint">
          The ToolRegistry spec: <code>handlers</code>, each with a <code>name</code> and a{' '}
          <code>type</code> (http, grpc, mcp or openapi) and that type’s settings.
        </span>
      </div>
      <ActionError error={save.error} what={`the tool registry “${name}”`} />
      <div className="actions">
        <button type="submit" className="button primary" disabled={save.busy}>
          {save.busy ? 'Saving…' : isNew ? 'Create tool registry' : 'Save'}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
