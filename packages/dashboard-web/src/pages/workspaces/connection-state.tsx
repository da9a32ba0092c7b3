import { useCallback, useState } from 'react';
import './agent-workspace.css';

/** How a live feed (an EventSource) stands; a feed may add states of its own (a run's `ended`). */
export type FeedConnection = 'connecting' | 'live' | 'reconnecting' | 'failed';

/**
 * A live feed's state, and its round: an effect that opens the feed depends on `round`, so that
 * `reconnect` (after the browser gave up) opens it anew.
 */
export function useFeedConnection<Extra extends string = never>() {
  const [connection, setConnection] = useState<FeedConnection | Extra>('connecting');
  const [round, setRound] = useState(0);
  const reconnect = useCallback(() => {
    setConnection('connecting');
    setRound((r) => r + 1);
  }, []);
  return { connection, setConnection, round, reconnect };
}

/**
 * The line that says how a live feed stands, in `text`; once the connection has `failed` (the
 * browser gave up), a button to connect again.
 */
export function ConnectionState({
  connection,
  text,
  onReconnect,
}: {
  /** The feed's state; it names the line's style, and `failed` offers to reconnect. */
  connection: string;
  text: string;
  onReconnect: () => void;
}) {
  return (
    <p className={`ws-changes-state ws-changes-${connection}`} role="status" aria-live="polite">
      {text}
      {connection === 'failed' && (
        <>
          {' '}
          <button type="button" className="button small" onClick={onReconnect}>
            Reconnect
          </button>
        </>
      )}
    </p>
  );
}
