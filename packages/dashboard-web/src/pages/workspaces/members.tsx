import { useId, useRef, useState, type FormEvent, type RefObject } from 'react';
import { api } from '../../api';
import { apiPath, isCode } from './errors';
import { ActionError, FocusHeading, StatusMessage, useAction } from './parts';
import {
  ROLES,
  anonymousMayChange,
  changeOf,
  grantState,
  newBindingRow,
  newGrantRow,
  requestOf,
  rowsOf,
  type BindingRow,
  type GrantRow,
} from './member-rules';
import type { Access, AccessChange, WorkspaceRole } from './types';
import type { WorkspaceViewProps } from './workspace-view';

let lastKey = 0;
const nextKey = () => ++lastKey;

/** Into the first field of the row just added, once it is there. */
function focusLastRow(rows: RefObject<HTMLOListElement | null>) {
  requestAnimationFrame(() => {
    const last = rows.current?.lastElementChild;
    last?.querySelector<HTMLInputElement>('input')?.focus();
  });
}

/** Owners only: who has access, and with which role; saved all at once. */
export function MembersTab({ workspace, reloadWorkspace }: WorkspaceViewProps) {
  // The access as last saved here: the workspace read again may lag behind it for a moment.
  const [saved, setSaved] = useState<Access | null>(null);
  const [round, setRound] = useState(0);
  const [status, setStatus] = useState<string | null>(null);
  const access = saved ?? workspace.access;
  if (access === null) {
    return (
      <section aria-labelledby="members-title">
        <FocusHeading level={2} id="members-title">
          Members
        </FocusHeading>
        <p>Only the workspace’s owners see and manage its members.</p>
      </section>
    );
  }
  return (
    <section aria-labelledby="members-title">
      <FocusHeading level={2} id="members-title">
        Members
      </FocusHeading>
      <p className="muted ws-lede">
        A person’s role is the highest their groups, a direct grant and anonymous access give them.
        Owners manage members; editors change agents, prompt packs and tool registries; viewers
        read.
      </p>
      <StatusMessage message={status} />
      <MembersForm
        key={round}
        workspace={workspace.name}
        access={access}
        onSaved={(next) => {
          setSaved(next);
          setRound((r) => r + 1);
          setStatus('Members saved.');
          reloadWorkspace();
        }}
        onEdited={() => setStatus(null)}
        onReload={() => {
          setSaved(null);
          setStatus(null);
          setRound((r) => r + 1);
          reloadWorkspace();
        }}
      />
    </section>
  );
}

function MembersForm({
  workspace,
  access,
  onSaved,
  onEdited,
  onReload,
}: {
  workspace: string;
  access: Access;
  onSaved: (access: Access) => void;
  onEdited: () => void;
  onReload: () => void;
}) {
  const id = useId();
  const [initial] = useState(() => rowsOf(access, nextKey));
  const [bindings, setBindings] = useState(initial.bindings);
  const [grants, setGrants] = useState(initial.grants);
  const [anonymous, setAnonymous] = useState(initial.anonymous);
  const save = useAction();
  const bindingRows = useRef<HTMLOListElement>(null);
  const grantRows = useRef<HTMLOListElement>(null);

  const editBinding = (key: number, change: Partial<BindingRow>) => {
    onEdited();
    setBindings((rows) => rows.map((r) => (r.key === key ? { ...r, ...change } : r)));
  };
  const editGrant = (key: number, change: Partial<GrantRow>) => {
    onEdited();
    setGrants((rows) => rows.map((r) => (r.key === key ? { ...r, ...change } : r)));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    let body: AccessChange;
    try {
      body = changeOf(bindings, grants, anonymous);
    } catch (error) {
      save.fail(error);
      return;
    }
    let next: Access | undefined;
    const result = await save.run(async () => {
      next = (
        await api<{ access: Access }>(`${apiPath(workspace)}/access`, {
          method: 'PUT',
          body: requestOf(body, access),
        })
      ).access;
      return '';
    });
    if (result.ok && next !== undefined) onSaved(next);
  };

  return (
    <form className="ws-members" noValidate onSubmit={(e) => void submit(e)}>
      <fieldset className="card ws-fieldset">
        <legend>Role bindings</legend>
        <p className="hint">
          Groups as your identity provider names them, and service accounts as{' '}
          <code>namespace/name</code>, separated by commas.
        </p>
        {bindings.length === 0 && <p className="muted">No role bindings.</p>}
        <ol className="ws-access-rows" ref={bindingRows}>
          {bindings.map((row, i) => (
            <li key={row.key}>
              <fieldset className="ws-access-row">
                <legend className="ws-visually-hidden">Binding {i + 1}</legend>
                <div className="field">
                  <label htmlFor={`${id}-b${row.key}-groups`}>Groups</label>
                  <input
                    id={`${id}-b${row.key}-groups`}
                    value={row.groups}
                    autoComplete="off"
                    onChange={(e) => editBinding(row.key, { groups: e.target.value })}
                  />
                </div>
                <div className="field">
                  <label htmlFor={`${id}-b${row.key}-sas`}>Service accounts</label>
                  <input
                    id={`${id}-b${row.key}-sas`}
                    value={row.serviceAccounts}
                    autoComplete="off"
                    placeholder="namespace/name"
                    onChange={(e) => editBinding(row.key, { serviceAccounts: e.target.value })}
                  />
                </div>
                <div className="field">
                  <label htmlFor={`${id}-b${row.key}-role`}>Role</label>
                  <select
                    id={`${id}-b${row.key}-role`}
                    value={row.role}
                    onChange={(e) =>
                      editBinding(row.key, { role: e.target.value as WorkspaceRole })
                    }
                  >
                    {ROLES.map((r) => (
                      <option key={r} value={r}>
                        {r}
                      </option>
                    ))}
                  </select>
                </div>
                <button
                  type="button"
                  className="button small danger ws-remove"
                  onClick={() => {
                    onEdited();
                    setBindings((rows) => rows.filter((r) => r.key !== row.key));
                  }}
                >
                  Remove binding {i + 1}
                </button>
              </fieldset>
            </li>
          ))}
        </ol>
        <button
          type="button"
          className="button small"
          onClick={() => {
            onEdited();
            setBindings((rows) => [...rows, newBindingRow(nextKey())]);
            focusLastRow(bindingRows);
          }}
        >
          Add binding
        </button>
      </fieldset>

      <fieldset className="card ws-fieldset">
        <legend>Direct grants</legend>
        <p className="hint">
          Single users by username or e-mail, for exceptions: groups are easier to keep right. An
          expiry is in your time zone; the grant stops counting at that moment.
        </p>
        {grants.length === 0 && <p className="muted">No direct grants.</p>}
        <ol className="ws-access-rows" ref={grantRows}>
          {grants.map((row, i) => (
            <li key={row.key}>
              <fieldset className="ws-access-row ws-grant-row">
                <legend className="ws-visually-hidden">Grant {i + 1}</legend>
                <div className="field">
                  <label htmlFor={`${id}-g${row.key}-user`}>User</label>
                  <input
                    id={`${id}-g${row.key}-user`}
                    value={row.user}
                    autoComplete="off"
                    spellCheck={false}
                    onChange={(e) => editGrant(row.key, { user: e.target.value })}
                  />
                </div>
                <div className="field">
                  <label htmlFor={`${id}-g${row.key}-role`}>Role</label>
                  <select
                    id={`${id}-g${row.key}-role`}
                    value={row.role}
                    onChange={(e) => editGrant(row.key, { role: e.target.value as WorkspaceRole })}
                  >
                    {ROLES.map((r) => (
                      <option key={r} value={r}>
                        {r}
                      </option>
                    ))}
                  </select>
                </div>
                <div className="field">
                  <label htmlFor={`${id}-g${row.key}-expires`}>Expires (optional)</label>
                  <input
                    id={`${id}-g${row.key}-expires`}
                    type="datetime-local"
                    value={row.expires}
                    onChange={(e) => editGrant(row.key, { expires: e.target.value })}
                    aria-describedby={`${id}-g${row.key}-state`}
                  />
                </div>
                <p className="ws-grant-state" id={`${id}-g${row.key}-state`}>
                  <GrantBadge state={grantState(row)} />
                </p>
                <button
                  type="button"
                  className="button small danger ws-remove"
                  onClick={() => {
                    onEdited();
                    setGrants((rows) => rows.filter((r) => r.key !== row.key));
                  }}
                >
                  Remove grant {i + 1}
                </button>
              </fieldset>
            </li>
          ))}
        </ol>
        <button
          type="button"
          className="button small"
          onClick={() => {
            onEdited();
            setGrants((rows) => [...rows, newGrantRow(nextKey())]);
            focusLastRow(grantRows);
          }}
        >
          Add grant
        </button>
      </fieldset>

      <fieldset className="card ws-fieldset">
        <legend>Anonymous access</legend>
        <div className="ws-check">
          <input
            id={`${id}-anon`}
            type="checkbox"
            checked={anonymous.enabled}
            onChange={(e) => {
              onEdited();
              setAnonymous((a) => ({ ...a, enabled: e.target.checked }));
            }}
          />
          <label htmlFor={`${id}-anon`}>
            Let anyone, signed in or not, use the workspace with a role
          </label>
        </div>
        <div className="field">
          <label htmlFor={`${id}-anon-role`}>Role of anonymous users</label>
          <select
            id={`${id}-anon-role`}
            value={anonymous.role}
            disabled={!anonymous.enabled}
            onChange={(e) => {
              onEdited();
              setAnonymous((a) => ({ ...a, role: e.target.value as WorkspaceRole }));
            }}
          >
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
          {anonymousMayChange(anonymous) && (
            <span className="hint ws-warn-text">
              Anyone could change this workspace: only for isolated development.
            </span>
          )}
        </div>
      </fieldset>

      <ActionError error={save.error} />
      {isCode(save.error, 'conflict') && (
        <p>
          <button type="button" className="button" onClick={onReload}>
            Reload the members
          </button>
        </p>
      )}
      <div className="actions">
        <button type="submit" className="button primary" disabled={save.busy}>
          {save.busy ? 'Saving…' : 'Save members'}
        </button>
        <button type="button" className="button" onClick={onReload}>
          Discard changes
        </button>
      </div>
    </form>
  );
}

const GRANT_BADGE_CLASS = { new: 'badge', active: 'badge ok', expired: 'badge bad' } as const;

function GrantBadge({ state }: { state: keyof typeof GRANT_BADGE_CLASS }) {
  return <span className={GRANT_BADGE_CLASS[state]}>{state}</span>;
}
