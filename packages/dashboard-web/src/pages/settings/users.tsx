import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { api, seg } from '../../api';
import { useAuth } from '../../auth';
import type { Page, Role } from '../../types';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { useErrorFocus, useHeadingFocus } from '../../ui/focus';
import { Empty, ErrorState, Loading } from '../../ui/states';
import { useApi } from '../../ui/use-api';
import { asSentence } from '../auth/messages';
import './settings.css';

interface AdminUser {
  id: string;
  username: string;
  email: string | null;
  displayName: string | null;
  groups: string[];
  role: Role;
  roleOverride: Role | null;
  provider: 'builtin' | 'proxy' | 'oauth';
  disabled: boolean;
  emailVerified: boolean;
  created: string;
}

interface UserPatch {
  role?: Role | null;
  groups?: string[];
  disabled?: boolean;
}

const PAGE_SIZE = 50;
const FROM_GROUPS = '';
const ROLE_NAMES: Record<Role, string> = { admin: 'Admin', editor: 'Editor', viewer: 'Viewer' };
const PROVIDER_NAMES: Record<AdminUser['provider'], string> = {
  builtin: 'Paddock account',
  oauth: 'Single sign-on',
  proxy: 'Proxy',
};

/** "a, b ,, c" → ["a", "b", "c"]: the groups as typed, without blanks or repeats. */
function parseGroups(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((g) => g.trim())
        .filter((g) => g !== ''),
    ),
  ];
}

function errorText(err: unknown): string {
  return err instanceof Error ? asSentence(err.message) : 'Something went wrong.';
}

/** /admin/users: every user of the dashboard, for admins; built-in users are edited here. */
export function UsersPage() {
  const { user } = useAuth();
  const heading = useHeadingFocus();
  return (
    <section className="page" aria-labelledby="users-title">
      <header>
        <h1 id="users-title" ref={heading} tabIndex={-1}>
          Users
        </h1>
      </header>
      {user?.role === 'admin' ? (
        <UserList />
      ) : (
        <div className="notice warn" role="alert">
          Only admins can see and change the users of this dashboard. Your role is{' '}
          {ROLE_NAMES[user?.role ?? 'viewer'].toLowerCase()}; ask an admin if you need access.
        </div>
      )}
    </section>
  );
}

function UserList() {
  const { user: me, config } = useAuth();
  const [params, setParams] = useSearchParams();
  const offset = Math.max(0, Number.parseInt(params.get('offset') ?? '0', 10) || 0);
  const list = useApi<{ users: AdminUser[] } & Page>(
    `/api/users?limit=${PAGE_SIZE}&offset=${offset}`,
  );
  const [status, setStatus] = useState('');
  const [disabling, setDisabling] = useState<AdminUser | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const failureRef = useErrorFocus(failure);
  const editable = config.mode === 'builtin';

  /** Sends a change; true when it was saved. */
  const patch = async (target: AdminUser, change: UserPatch, done: string): Promise<boolean> => {
    setFailure(null);
    setStatus('');
    try {
      await api(`/api/users/${seg(target.id)}`, { method: 'PATCH', body: change });
      setStatus(done);
      list.reload();
      return true;
    } catch (err) {
      setFailure(`${target.username} was not changed. ${errorText(err)}`);
      return false;
    }
  };

  const goTo = (next: number) =>
    setParams(next === 0 ? {} : { offset: String(next) }, { preventScrollReset: false });

  const data = list.data;
  return (
    <>
      {editable ? (
        <p className="muted">
          A role chosen here wins over the one the user’s groups give; “From groups” gives the
          choice back to the groups. Disabling a user signs them out everywhere.
        </p>
      ) : (
        <p className="notice">
          Your organisation’s sign-in decides who the users are and which groups they are in: they
          are listed here as the dashboard last saw them, and cannot be changed here.
        </p>
      )}
      <p className="page-status" role="status">
        {status}
      </p>
      {failure !== null && (
        <div ref={failureRef} className="notice error" role="alert" tabIndex={-1}>
          {failure}
        </div>
      )}
      {list.error !== undefined ? (
        <ErrorState error={list.error} title="The users could not be loaded" retry={list.reload} />
      ) : data === undefined ? (
        <Loading label="Loading the users" />
      ) : data.users.length === 0 ? (
        <Empty title="No users here">
          {offset > 0 ? 'This page is past the last user.' : 'Nobody has signed in yet.'}
        </Empty>
      ) : (
        <>
          <div className="table-wrap settings-table">
            <table className="users-table">
              <caption className="visually-hidden">Users of the dashboard</caption>
              <thead>
                <tr>
                  <th scope="col">User</th>
                  <th scope="col">Role</th>
                  <th scope="col">Groups</th>
                  <th scope="col">Signs in with</th>
                  <th scope="col">Status</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.users.map((u) => (
                  <UserRow
                    // A new answer for the user starts the row's drafts afresh.
                    key={`${u.id}:${u.roleOverride}:${u.role}:${u.groups.join(',')}:${u.disabled}`}
                    user={u}
                    self={u.id === me?.id}
                    editable={editable && u.provider === 'builtin'}
                    onSave={(change) => patch(u, change, `Saved the changes to ${u.username}.`)}
                    onEnable={() => void patch(u, { disabled: false }, `${u.username} is enabled.`)}
                    onDisable={() => setDisabling(u)}
                  />
                ))}
              </tbody>
            </table>
          </div>
          <nav className="actions pager" aria-label="Pages of users">
            <span>
              {data.offset + 1}–{data.offset + data.users.length} of {data.total} users
            </span>
            <span className="actions">
              <button
                type="button"
                className="button small"
                disabled={offset === 0}
                onClick={() => goTo(Math.max(0, offset - PAGE_SIZE))}
              >
                Previous
              </button>
              <button
                type="button"
                className="button small"
                disabled={data.offset + data.users.length >= data.total}
                onClick={() => goTo(offset + PAGE_SIZE)}
              >
                Next
              </button>
            </span>
          </nav>
        </>
      )}
      <ConfirmDialog
        open={disabling !== null}
        title={`Disable ${disabling?.username ?? ''}?`}
        confirmLabel="Disable"
        danger
        busy={busy}
        onConfirm={() => {
          if (disabling === null) return;
          setBusy(true);
          void patch(disabling, { disabled: true }, `${disabling.username} is disabled.`).then(
            () => {
              setBusy(false);
              setDisabling(null);
            },
          );
        }}
        onCancel={() => setDisabling(null)}
      >
        <p>
          They are signed out everywhere and cannot sign in, and their API keys stop working, until
          you enable them again.
        </p>
      </ConfirmDialog>
    </>
  );
}

function UserRow({
  user,
  self,
  editable,
  onSave,
  onEnable,
  onDisable,
}: {
  user: AdminUser;
  self: boolean;
  editable: boolean;
  onSave: (change: UserPatch) => Promise<boolean>;
  onEnable: () => void;
  onDisable: () => void;
}) {
  const [role, setRole] = useState<string>(user.roleOverride ?? FROM_GROUPS);
  const [groups, setGroups] = useState(user.groups.join(', '));
  const [saving, setSaving] = useState(false);
  const roleId = `role-${user.id}`;
  const groupsId = `groups-${user.id}`;

  const change: UserPatch = {};
  const chosenRole = role === FROM_GROUPS ? null : (role as Role);
  if (chosenRole !== user.roleOverride) change.role = chosenRole;
  const parsed = parseGroups(groups);
  if (parsed.join(',') !== user.groups.join(',')) change.groups = parsed;
  const changed = Object.keys(change).length > 0;

  const save = async () => {
    setSaving(true);
    if (!(await onSave(change))) setSaving(false);
  };

  return (
    <tr className={user.disabled ? 'is-disabled' : undefined}>
      <th scope="row" className="who">
        <span>
          {user.displayName ?? user.username} {self && <span className="badge">You</span>}
        </span>
        {user.displayName !== null && <span className="muted">{user.username}</span>}
        {user.email !== null && <span className="muted">{user.email}</span>}
      </th>
      <td>
        {editable ? (
          <>
            <label className="visually-hidden" htmlFor={roleId}>
              Role of {user.username}
            </label>
            <select
              id={roleId}
              value={role}
              disabled={self}
              onChange={(event) => setRole(event.target.value)}
            >
              <option value={FROM_GROUPS}>From groups</option>
              <option value="admin">Admin</option>
              <option value="editor">Editor</option>
              <option value="viewer">Viewer</option>
            </select>
            {user.roleOverride === null && (
              <div className="muted">Now {ROLE_NAMES[user.role].toLowerCase()}</div>
            )}
          </>
        ) : (
          <span className="badge">{ROLE_NAMES[user.role]}</span>
        )}
      </td>
      <td>
        {editable ? (
          <>
            <label className="visually-hidden" htmlFor={groupsId}>
              Groups of {user.username}, separated by commas
            </label>
            <input
              id={groupsId}
              className="groups-input"
              value={groups}
              placeholder="No groups"
              onChange={(event) => setGroups(event.target.value)}
            />
          </>
        ) : user.groups.length === 0 ? (
          <span className="muted">None</span>
        ) : (
          user.groups.join(', ')
        )}
      </td>
      <td>{PROVIDER_NAMES[user.provider]}</td>
      <td>
        {user.disabled ? (
          <span className="badge bad">Disabled</span>
        ) : user.provider === 'builtin' && !user.emailVerified ? (
          <span className="badge warn">Email not confirmed</span>
        ) : (
          <span className="badge ok">Active</span>
        )}
      </td>
      <td>
        {editable && (
          <div className="row-actions">
            <button
              type="button"
              className="button small primary"
              disabled={!changed || saving}
              aria-label={`Save ${user.username}`}
              onClick={() => void save()}
            >
              Save
            </button>
            {user.disabled ? (
              <button
                type="button"
                className="button small"
                aria-label={`Enable ${user.username}`}
                onClick={onEnable}
              >
                Enable
              </button>
            ) : (
              !self && (
                <button
                  type="button"
                  className="button small danger"
                  aria-label={`Disable ${user.username}`}
                  onClick={onDisable}
                >
                  Disable
                </button>
              )
            )}
          </div>
        )}
      </td>
    </tr>
  );
}
