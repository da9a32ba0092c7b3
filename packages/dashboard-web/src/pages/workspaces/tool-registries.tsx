import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { api } from '../../api';
import { OBJECT_NAME_HINT } from './object-names';
import { apiPath } from './errors';
import { newNameProblem, savedMessage } from './form-rules';
import { registrySpecOf } from './tool-registry-rules';
import { ActionError, ConditionList, PhaseBadge, useAction } from './parts';
import type { ToolRegistry, ToolRegistryList } from './types';
import { EditableList, type EditableKind } from './editable-list';
import { RegistryToolList } from './registry-tools';
import type { WorkspaceViewProps } from './workspace-view';

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

/** The kind of the tab's list, for one workspace (an item's view discovers its tools there). */
function toolRegistries(workspace: string): EditableKind<ToolRegistry> {
  return {
    path: 'toolregistries',
    itemsOf: (answer) => (answer as unknown as ToolRegistryList).toolRegistries,
    id: 'registries',
    title: 'Tool registries',
    noun: 'tool registry',
    lede: 'The tools agents may call, from HTTP, gRPC, MCP and OpenAPI handlers.',
    createHint: 'Create one with “New tool registry” to offer tools to the agents.',
    deleteWarning: 'Agents can no longer call its tools.',
    View: ({ item, ...rest }) => (
      <ToolRegistryView workspace={workspace} registry={item} {...rest} />
    ),
    Form: ({ item, ...rest }) => (
      <ToolRegistryForm {...rest} {...(item ? { registry: item } : {})} />
    ),
  };
}

/**
 * The workspace's tool registries: their tools as discovered now, with their descriptions and
 * schemas; where allowed, each tool tried with a form and the specs edited as JSON.
 */
export function ToolRegistriesTab({ workspace, reloadWorkspace }: WorkspaceViewProps) {
  const kind = useMemo(() => toolRegistries(workspace.name), [workspace.name]);
  return (
    <EditableList
      kind={kind}
      workspace={workspace}
      allowed={workspace.permissions.modifyTools}
      reloadWorkspace={reloadWorkspace}
    />
  );
}

function ToolRegistryView({
  workspace,
  registry,
  allowed,
  focusEdit,
  onEdit,
  onDelete,
}: {
  workspace: string;
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
      {/* A changed spec is discovered afresh. */}
      <RegistryToolList
        key={JSON.stringify(registry.spec)}
        workspace={workspace}
        registry={registry.name}
        canTry={allowed}
      />
      <details className="ws-details">
        <summary>Status, conditions and spec</summary>
        <h4>Tools as the operator last reported them</h4>
        {registry.discoveredTools.length === 0 ? (
          <p className="muted">The operator has reported no tools yet.</p>
        ) : (
          <div className="table-wrap">
            <table className="ws-stack">
              <caption className="ws-visually-hidden">
                Tools of {registry.name} in its status
              </caption>
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
    const nameProblem = newNameProblem(isNew, name, taken, 'tool registry');
    if (nameProblem !== null) {
      save.fail(new Error(nameProblem));
      return;
    }
    const checked = registrySpecOf(text);
    if (!checked.ok) {
      save.fail(new Error(checked.problem));
      return;
    }
    const spec = checked.value;
    const result = await save.run(async () => {
      await api(apiPath(workspace, 'toolregistries', name), { method: 'PUT', body: { spec } });
      return '';
    });
    if (result.ok) {
      onSaved(savedMessage(isNew, 'tool registry', name));
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
