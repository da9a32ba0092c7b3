import { useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { api, seg } from '../../api';
import { useAuth } from '../../auth';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { useErrorFocus, useHeadingFocus } from '../../ui/focus';
import { formatTime, relativeTime } from '../../ui/format';
import { Empty, ErrorState, Loading } from '../../ui/states';
import { TextField } from '../../ui/text-field';
import { useApi } from '../../ui/use-api';
import {
  DEFAULT_EXPIRY_DAYS,
  EXPIRY_CHOICES,
  expiryState,
  keyErrorSentence,
  keyMessages,
  keyNameProblem,
} from './api-key-rules';
import './settings.css';

interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  created: string;
  expires: string | null;
  lastUsed: string | null;
}

/** /settings/api-keys: the signed-in user's API keys, for scripts and the command line. */
export function ApiKeysPage() {
  const { user, config } = useAuth();
  const heading = useHeadingFocus();
  const anonymous = user?.provider === 'anonymous';
  return (
    <section className="page" aria-labelledby="api-keys-title">
      <header>
        <h1 id="api-keys-title" ref={heading} tabIndex={-1}>
          API keys
        </h1>
      </header>
      {anonymous ? (
        <Empty title="API keys belong to signed-in users">
          This dashboard lets everyone in without signing in, so there is nobody to own a key.{' '}
          <Link to="/">Go to your workspaces</Link>.
        </Empty>
      ) : !config.apiKeysEnabled ? (
        <Empty title="API keys are turned off">
          The administrator of this dashboard turned API keys off.
        </Empty>
      ) : (
        <ApiKeys />
      )}
    </section>
  );
}

function ApiKeys() {
  const keys = useApi<{ keys: ApiKey[] }>('/api/settings/api-keys');
  const [created, setCreated] = useState<{ key: string; name: string } | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const [revokeBusy, setRevokeBusy] = useState(false);
  const [revokeError, setRevokeError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const revokeErrorRef = useErrorFocus(revokeError);

  const revoke = async () => {
    if (revoking === null) return;
    setRevokeBusy(true);
    try {
      await api(`/api/settings/api-keys/${seg(revoking.id)}`, { method: 'DELETE' });
      setStatus(keyMessages.revoked(revoking.name));
      setRevokeError(null);
    } catch (err) {
      setRevokeError(keyMessages.notRevoked(revoking.name, err));
    } finally {
      setRevokeBusy(false);
      setRevoking(null);
      keys.reload();
    }
  };

  return (
    <>
      <p className="muted">
        An API key lets a script or the command line act as you, with your role: send it as{' '}
        <code>Authorization: Bearer &lt;key&gt;</code>. Revoke a key as soon as you no longer need
        it.
      </p>
      {created !== null ? (
        <NewKey
          value={created.key}
          name={created.name}
          onDone={() => {
            setCreated(null);
            setStatus('');
          }}
        />
      ) : (
        <CreateKey
          onCreated={(key, name) => {
            setCreated({ key, name });
            setStatus('');
            keys.reload();
          }}
        />
      )}
      <h2>Your keys</h2>
      <p className="page-status" role="status">
        {status}
      </p>
      {revokeError !== null && (
        <div ref={revokeErrorRef} className="notice error" role="alert" tabIndex={-1}>
          {revokeError}
        </div>
      )}
      {keys.error !== undefined ? (
        <ErrorState
          error={keys.error}
          title="Your API keys could not be loaded"
          retry={keys.reload}
        />
      ) : keys.data === undefined ? (
        <Loading label="Loading your API keys" />
      ) : keys.data.keys.length === 0 ? (
        <Empty title="You have no API keys yet">Create one above when a script needs access.</Empty>
      ) : (
        <div className="table-wrap settings-table">
          <table className="keys-table">
            <caption className="visually-hidden">Your API keys</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Key</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Expires</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.data.keys.map((key) => (
                <KeyRow key={key.id} apiKey={key} onRevoke={() => setRevoking(key)} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke the key “${revoking?.name ?? ''}”?`}
        confirmLabel="Revoke key"
        danger
        busy={revokeBusy}
        onConfirm={() => void revoke()}
        onCancel={() => setRevoking(null)}
      >
        <p>
          Scripts using it stop working at once. This cannot be undone: you would create a new key
          instead.
        </p>
      </ConfirmDialog>
    </>
  );
}

function KeyRow({ apiKey, onRevoke }: { apiKey: ApiKey; onRevoke: () => void }) {
  const expiry = expiryState(apiKey.expires);
  return (
    <tr>
      <th scope="row">{apiKey.name}</th>
      <td>
        <code>{apiKey.prefix}…</code>
      </td>
      <td>
        <time dateTime={apiKey.created} title={formatTime(apiKey.created)}>
          {relativeTime(apiKey.created)}
        </time>
      </td>
      <td>
        {apiKey.lastUsed === null ? (
          <span className="muted">Never</span>
        ) : (
          <time dateTime={apiKey.lastUsed} title={formatTime(apiKey.lastUsed)}>
            {relativeTime(apiKey.lastUsed)}
          </time>
        )}
      </td>
      <td>
        {expiry === 'never' || apiKey.expires === null ? (
          'Never'
        ) : (
          <>
            <time dateTime={apiKey.expires}>{formatTime(apiKey.expires)}</time>{' '}
            {expiry === 'expired' && <span className="badge bad">Expired</span>}
            {expiry === 'soon' && <span className="badge warn">Soon</span>}
          </>
        )}
      </td>
      <td>
        <button
          type="button"
          className="button small danger"
          aria-label={`Revoke ${apiKey.name}`}
          onClick={onRevoke}
        >
          Revoke
        </button>
      </td>
    </tr>
  );
}

function CreateKey({ onCreated }: { onCreated: (key: string, name: string) => void }) {
  const [name, setName] = useState('');
  const [days, setDays] = useState<number>(DEFAULT_EXPIRY_DAYS);
  const [nameError, setNameError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);
  const failureRef = useErrorFocus(failure);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const problem = keyNameProblem(name);
    if (problem !== null) {
      setNameError(problem);
      nameRef.current?.focus();
      return;
    }
    const trimmed = name.trim();
    setNameError(undefined);
    setBusy(true);
    try {
      const answer = await api<{ key: string; apiKey: ApiKey }>('/api/settings/api-keys', {
        method: 'POST',
        body: { name: trimmed, expiresInDays: days },
      });
      setName('');
      onCreated(answer.key, answer.apiKey.name);
    } catch (err) {
      setFailure(keyErrorSentence(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="card"
      noValidate
      onSubmit={(event) => void submit(event)}
      aria-labelledby="create-key-title"
    >
      <h2 id="create-key-title">Create a key</h2>
      <div className="settings-form">
        <TextField
          ref={nameRef}
          label="Name"
          name="name"
          maxLength={100}
          autoComplete="off"
          required
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={nameError}
          hint="What uses it, to recognise it later."
        />
        <div className="field field-expiry">
          <label htmlFor="key-expiry">Expires after</label>
          <select
            id="key-expiry"
            value={days}
            onChange={(event) => setDays(Number(event.target.value))}
          >
            {EXPIRY_CHOICES.map((choice) => (
              <option key={choice.days} value={choice.days}>
                {choice.label}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? 'Creating…' : 'Create key'}
        </button>
      </div>
      {failure !== null && (
        <div ref={failureRef} className="notice error" role="alert" tabIndex={-1}>
          {failure}
        </div>
      )}
    </form>
  );
}

/** The new key, shown this once, with a copy button. */
function NewKey({ value, name, onDone }: { value: string; name: string; onDone: () => void }) {
  const heading = useHeadingFocus<HTMLHeadingElement>();
  const inputRef = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<'no' | 'yes' | 'select'>('no');

  const copy = async () => {
    try {
      if (navigator.clipboard === undefined) throw new Error('no clipboard');
      await navigator.clipboard.writeText(value);
      setCopied('yes');
    } catch {
      // No clipboard access (an insecure page, a refused permission): select it for the person.
      inputRef.current?.focus();
      inputRef.current?.select();
      setCopied('select');
    }
  };

  return (
    <div className="card new-key">
      <h2 ref={heading} tabIndex={-1}>
        Your new key “{name}”
      </h2>
      <p className="notice warn">
        Copy the key now and keep it somewhere safe: it will not be shown again.
      </p>
      <div className="field">
        <label htmlFor="new-key-value">Your new API key</label>
        <div className="new-key-value">
          <input
            ref={inputRef}
            id="new-key-value"
            readOnly
            value={value}
            spellCheck={false}
            autoComplete="off"
            onFocus={(event) => event.target.select()}
          />
          <button type="button" className="button primary" onClick={() => void copy()}>
            Copy
          </button>
        </div>
        <p className={`copy-status${copied === 'select' ? ' fallback' : ''}`} role="status">
          {copied === 'yes' && 'Copied to the clipboard.'}
          {copied === 'select' && 'The key is selected: press Ctrl+C (⌘C on a Mac) to copy it.'}
        </p>
      </div>
      <button type="button" className="button" onClick={onDone}>
        Done, I saved it
      </button>
    </div>
  );
}
