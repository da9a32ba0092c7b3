import { useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { api, seg } from '../../api';
import { useAuth } from '../../auth';
import type { Page } from '../../types';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { useErrorFocus, useHeadingFocus } from '../../ui/focus';
import { TextField } from '../../ui/text-field';
import { Empty, ErrorState, Loading } from '../../ui/states';
import { useApi } from '../../ui/use-api';
import {
  EMPTY_NEW_USER,
  PAGE_SIZE,
  FROM_GROUPS,
  PROVIDER_NAMES,
  ROLE_NAMES,
  isChange,
  newUserBody,
  newUserProblems,
  noUsersText,
  offsetOf,
  pageParams,
  pagerOf,
  patchOf,
  roleDraftOf,
  roleNoun,
  userEditable,
  userMessages,
  userRowKey,
  userStatus,
  usersEditable,
  type NewUserDraft,
  type PagerState,
  type UserFacts,
  type UserPatch,
} from './user-rules';
import './settings.css';

/** A user as GET /api/users lists them. */
interface AdminUser extends UserFacts {
  username: string;
  email: string | null;
  displayName: string | null;
  created: string;
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
          {roleNoun(user?.role)}; ask an admin if you need access.
        </div>
      )}
    </section>
  );
}

function UserList() {
  const { user: me, config } = useAuth();
  const [params, setParams] = useSearchParams();
  const offset = offsetOf(params.get('offset'));
  const list = useApi<{ users: AdminUser[] } & Page>(
    `/api/users?limit=${PAGE_SIZE}&offset=${offset}`,
  );
  const [status, setStatus] = useState('');
  const [disabling, setDisabling] = useState<AdminUser | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const failureRef = useErrorFocus(failure);
  const editable = usersEditable(config.mode);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<{ username: string; password: string } | null>(null);

  const sendReset = async (target: AdminUser) => {
    setFailure(null);
    setStatus('');
    try {
      await api(`/api/users/${seg(target.id)}/reset-password`, { method: 'POST', body: {} });
      setStatus(userMessages.resetSent(target.username, target.email ?? ''));
    } catch (err) {
      setFailure(userMessages.resetNotSent(target.username, err));
    }
  };

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
      setFailure(userMessages.notChanged(target.username, err));
      return false;
    }
  };

  const goTo = (next: number) => setParams(pageParams(next), { preventScrollReset: false });

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
      {editable && !creating && created === null && (
        <p>
          <button type="button" className="button primary" onClick={() => setCreating(true)}>
            New user
          </button>
        </p>
      )}
      {creating && (
        <NewUserForm
          onCancel={() => setCreating(false)}
          onCreated={(answer) => {
            setCreating(false);
            setStatus(
              userMessages.created(
                answer.user.username,
                answer.setPasswordMailSent ? answer.user.email : null,
              ),
            );
            if (answer.initialPassword !== undefined) {
              setCreated({ username: answer.user.username, password: answer.initialPassword });
            }
            list.reload();
          }}
        />
      )}
      {created !== null && (
        <InitialPassword
          username={created.username}
          password={created.password}
          onDone={() => setCreated(null)}
        />
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
        <Empty title="No users here">{noUsersText(offset)}</Empty>
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
                    key={userRowKey(u)}
                    user={u}
                    self={u.id === me?.id}
                    editable={userEditable(config.mode, u)}
                    onSave={(change) => patch(u, change, userMessages.saved(u.username))}
                    onEnable={() =>
                      void patch(u, { disabled: false }, userMessages.enabled(u.username))
                    }
                    onDisable={() => setDisabling(u)}
                    onSendReset={() => void sendReset(u)}
                  />
                ))}
              </tbody>
            </table>
          </div>
          <Pager pager={pagerOf(offset, data, data.users.length)} onGo={goTo} />
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
          void patch(disabling, { disabled: true }, userMessages.disabled(disabling.username)).then(
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

/** The range of users shown, and buttons to the pages either side. */
function Pager({ pager, onGo }: { pager: PagerState; onGo: (offset: number) => void }) {
  return (
    <nav className="actions pager" aria-label="Pages of users">
      <span>
        {pager.from}–{pager.to} of {pager.total} users
      </span>
      <span className="actions">
        <button
          type="button"
          className="button small"
          disabled={pager.previous === null}
          onClick={() => pager.previous !== null && onGo(pager.previous)}
        >
          Previous
        </button>
        <button
          type="button"
          className="button small"
          disabled={pager.next === null}
          onClick={() => pager.next !== null && onGo(pager.next)}
        >
          Next
        </button>
      </span>
    </nav>
  );
}

function UserRow({
  user,
  self,
  editable,
  onSave,
  onEnable,
  onDisable,
  onSendReset,
}: {
  user: AdminUser;
  self: boolean;
  editable: boolean;
  onSave: (change: UserPatch) => Promise<boolean>;
  onEnable: () => void;
  onDisable: () => void;
  onSendReset: () => void;
}) {
  const [role, setRole] = useState(() => roleDraftOf(user));
  const [groups, setGroups] = useState(user.groups.join(', '));
  const [saving, setSaving] = useState(false);
  const roleId = `role-${user.id}`;
  const groupsId = `groups-${user.id}`;

  const change = patchOf(user, role, groups);
  const changed = isChange(change);
  const status = userStatus(user);

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
            {user.roleOverride === null && <div className="muted">Now {roleNoun(user.role)}</div>}
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
        <span className={`badge ${status.tone}`}>{status.label}</span>
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
            {!user.disabled && user.email !== null && (
              <button
                type="button"
                className="button small"
                aria-label={`Send ${user.username} a reset mail`}
                title="Mails a link to choose a new password; the current one works until it is used."
                onClick={onSendReset}
              >
                Send reset mail
              </button>
            )}
          </div>
        )}
      </td>
    </tr>
  );
}

/** What POST /api/users answers. */
interface CreatedUser {
  user: AdminUser;
  initialPassword?: string;
  setPasswordMailSent: boolean;
}

/** The New user form: who they are, and optionally their role and groups. */
function NewUserForm({
  onCreated,
  onCancel,
}: {
  onCreated: (answer: CreatedUser) => void;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState<NewUserDraft>(EMPTY_NEW_USER);
  const [errors, setErrors] = useState<Partial<Record<'username' | 'email', string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const heading = useHeadingFocus<HTMLHeadingElement>();
  const usernameRef = useRef<HTMLInputElement>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const failureRef = useErrorFocus(failure);
  const set = (field: keyof NewUserDraft) => (value: string) =>
    setDraft((d) => ({ ...d, [field]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const body = newUserBody(draft);
    const problems = newUserProblems(body);
    setErrors(problems);
    if (problems.username) return usernameRef.current?.focus();
    if (problems.email) return emailRef.current?.focus();
    setBusy(true);
    try {
      onCreated(await api<CreatedUser>('/api/users', { method: 'POST', body }));
    } catch (err) {
      setFailure(userMessages.notCreated(err));
      setBusy(false);
    }
  };

  return (
    <form
      className="card"
      noValidate
      onSubmit={(event) => void submit(event)}
      aria-labelledby="new-user-title"
    >
      <h2 id="new-user-title" ref={heading} tabIndex={-1}>
        New user
      </h2>
      <div className="settings-form">
        <TextField
          ref={usernameRef}
          label="Username"
          name="username"
          autoComplete="off"
          required
          value={draft.username}
          onChange={(event) => set('username')(event.target.value)}
          error={errors.username}
        />
        <TextField
          ref={emailRef}
          label="Email"
          name="email"
          type="email"
          autoComplete="off"
          required
          value={draft.email}
          onChange={(event) => set('email')(event.target.value)}
          error={errors.email}
        />
        <TextField
          label="Display name"
          name="displayName"
          autoComplete="off"
          value={draft.displayName}
          onChange={(event) => set('displayName')(event.target.value)}
          hint="Optional."
        />
        <div className="field field-expiry">
          <label htmlFor="new-user-role">Role</label>
          <select
            id="new-user-role"
            value={draft.role}
            onChange={(event) => set('role')(event.target.value)}
          >
            <option value={FROM_GROUPS}>From groups</option>
            <option value="admin">Admin</option>
            <option value="editor">Editor</option>
            <option value="viewer">Viewer</option>
          </select>
        </div>
        <TextField
          label="Groups"
          name="groups"
          autoComplete="off"
          value={draft.groups}
          onChange={(event) => set('groups')(event.target.value)}
          hint="Optional, separated by commas."
        />
      </div>
      <p className="muted">
        With mail set up, they get a link to choose their password; otherwise you are shown a
        password to hand over, once.
      </p>
      {failure !== null && (
        <div ref={failureRef} className="notice error" role="alert" tabIndex={-1}>
          {failure}
        </div>
      )}
      <div className="actions">
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? 'Creating…' : 'Create user'}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** A new user's generated password, shown this once. */
function InitialPassword({
  username,
  password,
  onDone,
}: {
  username: string;
  password: string;
  onDone: () => void;
}) {
  const heading = useHeadingFocus<HTMLHeadingElement>();
  return (
    <div className="card new-key">
      <h2 ref={heading} tabIndex={-1}>
        The initial password of {username}
      </h2>
      <p className="notice warn">
        Hand it over now: it will not be shown again. {username} can change it under Change password
        once signed in.
      </p>
      <div className="field">
        <label htmlFor="initial-password-value">Initial password</label>
        <div className="new-key-value">
          <input
            id="initial-password-value"
            readOnly
            value={password}
            spellCheck={false}
            autoComplete="off"
            onFocus={(event) => event.target.select()}
          />
        </div>
      </div>
      <button type="button" className="button" onClick={onDone}>
        Done
      </button>
    </div>
  );
}
