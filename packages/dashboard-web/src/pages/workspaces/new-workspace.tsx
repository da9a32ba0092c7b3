import { useId, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { ApiError, call, seg, type AnswerOf } from '../../api';
import { useAuth } from '../../auth';
import { PAGE_PATHS } from '../../page-paths';
import { TextField } from '../../ui/text-field';
import { sentence } from './errors';
import {
  creatorOwns,
  DNS_LABEL_HINT,
  DNS_LABEL_MAX,
  draftProblems,
  EMPTY_DRAFT,
  ENVIRONMENTS,
  fieldOfRefusal,
  requestOf,
  type DraftField,
  type DraftProblems,
  type Environment,
  type NewWorkspaceDraft,
} from './new-workspace-rules';
import { ROLES } from './member-rules';
import { ActionError, FocusHeading, StatusMessage, useAction } from './parts';
import type { WorkspaceRole } from './types';

/** The order of the fields, to focus the first one with a problem. */
const FIELDS: readonly DraftField[] = ['name', 'displayName', 'namespace', 'group'];

/** /admin/workspaces/new: an admin creates a workspace, then goes to it. */
export function NewWorkspacePage() {
  const { user } = useAuth();
  return (
    <section className="page" aria-labelledby="new-workspace-title">
      <header>
        <div>
          <FocusHeading level={1} id="new-workspace-title">
            New workspace
          </FocusHeading>
          <p className="muted ws-lede">
            A Workspace: its namespace, who may use it and how. Quotas, network isolation and
            budgets can be set through the API or the Workspace object.
          </p>
        </div>
      </header>
      {user?.role === 'admin' ? (
        <NewWorkspaceForm />
      ) : (
        <div className="notice warn" role="alert">
          Only admins of the dashboard create workspaces; ask one for the workspace you need.
        </div>
      )}
    </section>
  );
}

function NewWorkspaceForm() {
  const id = useId();
  const navigate = useNavigate();
  const [draft, setDraft] = useState<NewWorkspaceDraft>(EMPTY_DRAFT);
  const [problems, setProblems] = useState<DraftProblems>({});
  const [created, setCreated] = useState<string | null>(null);
  const create = useAction();
  const fieldId = (field: DraftField) => `${id}-${field}`;
  const edit = (change: Partial<NewWorkspaceDraft>) => {
    setDraft((d) => ({ ...d, ...change }));
    const edited = Object.keys(change).filter((key): key is DraftField =>
      (FIELDS as readonly string[]).includes(key),
    );
    if (edited.length > 0) {
      setProblems((p) =>
        Object.fromEntries(Object.entries(p).filter(([k]) => !edited.includes(k as DraftField))),
      );
    }
  };
  const show = (found: DraftProblems) => {
    setProblems(found);
    const first = FIELDS.find((field) => found[field] !== undefined);
    if (first !== undefined) document.getElementById(fieldId(first))?.focus();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setCreated(null);
    const found = draftProblems(draft);
    if (Object.keys(found).length > 0) {
      create.clear();
      show(found);
      return;
    }
    const request = requestOf(draft);
    let answer: AnswerOf<'/api/workspaces', 'post'> | undefined;
    const result = await create.run(async () => {
      answer = await call('post', '/api/workspaces', { body: request });
      return '';
    });
    if (result.ok) {
      if (answer !== undefined && answer.workspace !== null) {
        await navigate(`/workspaces/${seg(request.name)}`);
      } else {
        setCreated(request.name);
        setDraft(EMPTY_DRAFT);
      }
      return;
    }
    const { error } = result;
    const field = error instanceof ApiError ? fieldOfRefusal(error.code, error.message) : undefined;
    if (field !== undefined && error instanceof ApiError) {
      create.clear();
      show({ [field]: sentence(error.message) });
    }
  };

  return (
    <form
      className="card ws-form"
      noValidate
      aria-label="The new workspace"
      onSubmit={(e) => void submit(e)}
    >
      <div className="ws-form-grid">
        <TextField
          id={fieldId('name')}
          label="Name"
          value={draft.name}
          onChange={(e) => edit({ name: e.target.value })}
          autoComplete="off"
          spellCheck={false}
          required
          maxLength={DNS_LABEL_MAX}
          hint={`The Workspace object’s name, for good. ${DNS_LABEL_HINT}`}
          error={problems.name}
        />
        <TextField
          id={fieldId('displayName')}
          label="Display name"
          value={draft.displayName}
          onChange={(e) => edit({ displayName: e.target.value })}
          autoComplete="off"
          required
          hint="The name people see."
          error={problems.displayName}
        />
        <div className="field">
          <label htmlFor={`${id}-environment`}>Environment</label>
          <select
            id={`${id}-environment`}
            value={draft.environment}
            onChange={(e) => edit({ environment: e.target.value as Environment })}
          >
            {ENVIRONMENTS.map((environment) => (
              <option key={environment} value={environment}>
                {environment}
              </option>
            ))}
          </select>
        </div>
      </div>
      <TextField
        id={`${id}-description`}
        label="Description (optional)"
        value={draft.description}
        onChange={(e) => edit({ description: e.target.value })}
        autoComplete="off"
      />

      <fieldset className="ws-fieldset">
        <legend>Namespace</legend>
        <div className="ws-form-grid">
          <TextField
            id={fieldId('namespace')}
            label="Namespace (optional)"
            value={draft.namespace}
            placeholder={draft.name.trim()}
            onChange={(e) => edit({ namespace: e.target.value })}
            autoComplete="off"
            spellCheck={false}
            maxLength={DNS_LABEL_MAX}
            hint="Where the workspace’s agents run; empty: the workspace’s name."
            error={problems.namespace}
          />
        </div>
        <div className="ws-check">
          <input
            id={`${id}-create-namespace`}
            type="checkbox"
            checked={draft.createNamespace}
            onChange={(e) => edit({ createNamespace: e.target.checked })}
          />
          <label htmlFor={`${id}-create-namespace`}>
            Create the namespace if it does not exist (otherwise it must exist already)
          </label>
        </div>
      </fieldset>

      <fieldset className="ws-fieldset">
        <legend>A first group (optional)</legend>
        <div className="ws-form-grid">
          <TextField
            id={fieldId('group')}
            label="Group"
            value={draft.group}
            onChange={(e) => edit({ group: e.target.value })}
            autoComplete="off"
            spellCheck={false}
            hint="A group of your identity provider; more on the Members tab later."
            error={problems.group}
          />
          <div className="field">
            <label htmlFor={`${id}-group-role`}>Its role</label>
            <select
              id={`${id}-group-role`}
              value={draft.groupRole}
              onChange={(e) => edit({ groupRole: e.target.value as WorkspaceRole })}
            >
              {ROLES.map((role) => (
                <option key={role} value={role}>
                  {role}
                </option>
              ))}
            </select>
          </div>
        </div>
        <p className="muted">
          {creatorOwns(draft)
            ? 'You become the workspace’s owner.'
            : 'The group owns the workspace: you get no role in it unless you are in the group.'}
        </p>
      </fieldset>

      <ActionError error={create.error} what={`a workspace named “${draft.name.trim()}”`} />
      <StatusMessage
        message={
          created === null
            ? null
            : `Created the workspace “${created}”. You hold no role in it, so it is not in your list.`
        }
      />
      <div className="actions">
        <button type="submit" className="button primary" disabled={create.busy}>
          {create.busy ? 'Creating…' : 'Create workspace'}
        </button>
        <Link className="button" to={PAGE_PATHS.workspaces}>
          Cancel
        </Link>
      </div>
    </form>
  );
}
