import { useEffect, useState } from 'react';
import { Empty } from '../../ui/states';
import { addChange, canOpen, changeVerb, parseChange, type FileChange } from './change-feed';
import { ConnectionState, useFeedConnection, type FeedConnection } from './connection-state';
import { When } from './parts';
import { doorPath, type PodRef } from './sandbox-door';
import './agent-workspace.css';

const CONNECTION_TEXT: Record<FeedConnection, string> = {
  connecting: 'Connecting to the workspace…',
  live: 'Live: changes appear as they happen.',
  reconnecting: 'The connection dropped; reconnecting. Changes made meanwhile will follow.',
  failed: 'The feed of changes stopped: the workspace cannot be reached.',
};

/**
 * The Changes tab: files created, modified, deleted and renamed in the workspace as they happen,
 * newest first (the sandbox's event stream). The browser's EventSource reconnects by itself and
 * sends the last id it saw, so the sandbox replays what was missed; changes already listed are not
 * listed twice. When the sandbox cannot replay (a `reset`), the list starts afresh and `onReset`
 * lets the Files tab read the tree again.
 */
export function ChangesPanel({
  pod,
  onOpen,
  onReset,
}: {
  pod: PodRef;
  onOpen: (path: string) => void;
  onReset: () => void;
}) {
  const [changes, setChanges] = useState<FileChange[]>([]);
  const [resetNotice, setResetNotice] = useState<string | null>(null);
  const { connection, setConnection, round, reconnect } = useFeedConnection();
  const url = doorPath(pod, 'api/events');

  useEffect(() => {
    const source = new EventSource(url, { withCredentials: true });
    source.addEventListener('ready', () => setConnection('live'));
    source.addEventListener('change', (event: MessageEvent<string>) => {
      const change = parseChange(event.lastEventId, event.data);
      if (change !== undefined) setChanges((list) => addChange(list, change));
    });
    source.addEventListener('reset', () => {
      setChanges([]);
      setResetNotice(
        'Some changes could not be replayed (too many at once, or the workspace restarted): the list starts again from now, and the file tree was read again.',
      );
      onReset();
    });
    source.addEventListener('error', () => {
      // CLOSED: the door refused (no access, pod not ready); otherwise the browser retries.
      setConnection(source.readyState === EventSource.CLOSED ? 'failed' : 'reconnecting');
    });
    return () => source.close();
  }, [url, round, onReset, setConnection]);

  return (
    <div className="ws-changes">
      <div className="ws-section-head">
        <h3 id="changes-title">Changes</h3>
        <div className="actions">
          {changes.length > 0 && (
            <button type="button" className="button small" onClick={() => setChanges([])}>
              Clear the list
            </button>
          )}
        </div>
      </div>
      <ConnectionState
        connection={connection}
        text={CONNECTION_TEXT[connection]}
        onReconnect={reconnect}
      />
      {resetNotice !== null && (
        <div className="notice warn" role="alert">
          <p>{resetNotice}</p>
          <button type="button" className="button small" onClick={() => setResetNotice(null)}>
            Dismiss
          </button>
        </div>
      )}
      {changes.length === 0 ? (
        <Empty title="No changes yet">
          <p>
            Files the agent, a terminal or anyone else creates, modifies, deletes or renames in the
            workspace appear here as it happens.
          </p>
        </Empty>
      ) : (
        <ol className="ws-change-list" aria-labelledby="changes-title">
          {changes.map((change) => (
            <li key={change.id} className={`ws-change ws-change-${change.type}`}>
              <span
                className={`badge ${change.type === 'delete' ? 'bad' : change.type === 'create' ? 'ok' : 'warn'}`}
              >
                {changeVerb(change.type)}
              </span>{' '}
              <span className="ws-change-kind">{change.kind === 'dir' ? 'folder' : 'file'}</span>{' '}
              {canOpen(change) ? (
                <button
                  type="button"
                  className="ws-link-button"
                  onClick={() => onOpen(change.path)}
                  title="Open in Files"
                >
                  <code>{change.path}</code>
                </button>
              ) : (
                <code>{change.path}</code>
              )}
              {change.from !== undefined && (
                <span className="muted">
                  {' '}
                  (from <code>{change.from}</code>)
                </span>
              )}{' '}
              <span className="muted ws-small">
                <When value={change.time} />
              </span>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
