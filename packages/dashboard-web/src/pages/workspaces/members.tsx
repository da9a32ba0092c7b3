import { useId, useRef, useState, type FormEvent, type RefObject } from 'react';
import { api } from '../../api';
import { apiPath, isCode } from './errors';
import { ActionError, FocusHeading, StatusMessage, useAction } from './parts';
import type { Access, AccessChange, RoleBinding, WorkspaceRole } from './types';
import type { WorkspaceViewProps } from './workspace';

const ROLES: WorkspaceRole[] = ['owner', 'editor', 'viewer'];

let lastKey = 0;
const nextKey = () => ++lastKey;

interface BindingRow {
  key: number;
  /** Comma-separated group names. */
  groups: string;
  /** Comma-separated `namespace/name` ServiceAccounts. */
  serviceAccounts: string;
  role: WorkspaceRole;
}

interface GrantRow {
  key: number;
  user: string;
  role: WorkspaceRole;
  /** The `datetime-local` value, in the browser's time zone; empty: never. */
  expires: string;
  /** The expiry as the workspace has it, kept as it is unless the input changed. */
  original: string | null;
  /** Whether the grant was in force when read; undefined for a grant added here. */
  active: boolean | undefined;
}

/** An RFC 3339 time as a `datetime-local` value in the browser's time zone ('' if unreadable). */
export function toLocalInput(value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}`
  );
}

/** A `datetime-local` value (the browser's time zone) as RFC 3339 in UTC. */
export function toRfc3339(local: string): string {
  const date = new Date(local);
  if (Number.isNaN(date.getTime())) throw new Error(`“${local}” is not a date and time.`);
  return date.toISOString().replace(/\.000Z$/, 'Z');
}

function rowsOf(access: Access): { bindings: BindingRow[]; grants: GrantRow[] } {
  return {
    bindings: access.roleBindings.map((b) => ({
      key: nextKey(),
      groups: (b.groups ?? []).join(', '),
      serviceAccounts: (b.serviceAccounts ?? []).map((s) => `${s.namespace}/${s.name}`).join(', '),
      role: b.role,
    })),
    grants: access.directGrants.map((g) => ({
      key: nextKey(),
      user: g.user,
      role: g.role,
      expires: toLocalInput(g.expires),
      original: g.expires ?? null,
      active: g.active,
    })),
  };
}

/** Into the first field of the row just added, once it is there. */
function focusLastRow(rows: RefObject<HTMLOListElement | null>) {
  requestAnimationFrame(() => {
    const last = rows.current?.lastElementChild;
    last?.querySelector<HTMLInputElement>('input')?.focus();
  });
}

const list = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

/** The change to send, or an Error saying what to fix first. */
function changeOf(
  bindings: BindingRow[],
  grants: GrantRow[],
  anonymous: { enabled: boolean; role: WorkspaceRole },
): AccessChange {
  const roleBindings = bindings.map((row, i): RoleBinding => {
    const groups = list(row.groups);
    const accounts = list(row.serviceAccounts).map((entry) => {
      const [namespace, name, ...rest] = entry.split('/');
      if (namespace === undefined || name === undefined || rest.length > 0 || !namespace || !name) {
        throw new Error(
          `Binding ${i + 1}: write each service account as namespace/name (not “${entry}”).`,
        );
      }
      return { namespace, name };
    });
    if (groups.length + accounts.length === 0) {
      throw new Error(`Binding ${i + 1} names no group or service account: add one, or remove it.`);
    }
    return {
      ...(groups.length > 0 ? { groups } : {}),
      ...(accounts.length > 0 ? { serviceAccounts: accounts } : {}),
      role: row.role,
    };
  });
  const directGrants = grants.map((row, i) => {
    const user = row.user.trim();
    if (user === '') throw new Error(`Grant ${i + 1} names no user: add a username or e-mail.`);
    let expires: string | null = null;
    if (row.original !== null && row.expires === toLocalInput(row.original)) {
      expires = row.original;
    } else if (row.expires !== '') {
      expires = toRfc3339(row.expires);
    }
    return { user, role: row.role, ...(expires === null ? {} : { expires }) };
  });
  return {
    roleBindings,
    directGrants,
    anonymousAccess: anonymous.enabled
      ? { enabled: true, role: anonymous.role }
      : { enabled: false },
  };
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
  const [initial] = useState(() => rowsOf(access));
  const [bindings, setBindings] = useState(initial.bindings);
  const [grants, setGrants] = useState(initial.grants);
  const [anonymous, setAnonymous] = useState({
    enabled: access.anonymousAccess.enabled,
    role: access.anonymousAccess.role ?? 'viewer',
  });
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
          body:
            access.resourceVersion === null
              ? body
              : { ...body, resourceVersion: access.resourceVersion },
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
            setBindings((rows) => [
              ...rows,
              { key: nextKey(), groups: '', serviceAccounts: '', role: 'viewer' },
            ]);
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
                  {row.active === undefined ? (
                    <span className="badge">new</span>
                  ) : row.active ? (
                    <span className="badge ok">active</span>
                  ) : (
                    <span className="badge bad">expired</span>
                  )}
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
            setGrants((rows) => [
              ...rows,
              {
                key: nextKey(),
                user: '',
                role: 'viewer',
                expires: '',
                original: null,
                active: undefined,
              },
            ]);
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
          {anonymous.enabled && anonymous.role !== 'viewer' && (
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
