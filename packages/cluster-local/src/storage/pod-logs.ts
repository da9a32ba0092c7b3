import type { Database } from 'better-sqlite3';

/** One line a container wrote, with when it was written (RFC 3339, nanosecond-style as kubelet's). */
export interface LogLine {
  time: string;
  line: string;
}

type Follower = (lines: LogLine[]) => void;

/**
 * Pod logs, kept beside the objects rather than in them: a pod's log grows without bumping its
 * resourceVersion or waking its watchers. Nothing runs containers here, so lines come from whoever
 * plays the container (a test, the dashboard's fake agents) through `pods/<name>/log` POSTs or
 * the cluster's appendPodLog.
 */
export class PodLogs {
  private readonly memory = new Map<string, LogLine[]>();
  private readonly followers = new Map<string, Set<Follower>>();

  constructor(private readonly db?: Database) {}

  append(podUid: string, container: string, text: string, now: Date): void {
    if (text === '') return;
    const body = text.endsWith('\n') ? text.slice(0, -1) : text;
    const time = now.toISOString().replace(/Z$/, '000000Z');
    const lines = body.split('\n').map((line) => ({ time, line }));
    const key = keyOf(podUid, container);
    if (this.db) {
      const insert = this.db.prepare(
        'INSERT INTO pod_logs (pod_uid, container, time, line) VALUES (?, ?, ?, ?)',
      );
      this.db.transaction(() => {
        for (const l of lines) insert.run(podUid, container, l.time, l.line);
      })();
    } else {
      let kept = this.memory.get(key);
      if (!kept) this.memory.set(key, (kept = []));
      kept.push(...lines);
    }
    for (const follower of this.followers.get(key) ?? []) follower(lines);
  }

  read(podUid: string, container: string): LogLine[] {
    if (!this.db) return [...(this.memory.get(keyOf(podUid, container)) ?? [])];
    return this.db
      .prepare<[string, string], LogLine>(
        'SELECT time, line FROM pod_logs WHERE pod_uid = ? AND container = ? ORDER BY seq',
      )
      .all(podUid, container);
  }

  /** Calls back with each batch of lines appended from now on; returns the unsubscribe. */
  follow(podUid: string, container: string, follower: Follower): () => void {
    const key = keyOf(podUid, container);
    let set = this.followers.get(key);
    if (!set) this.followers.set(key, (set = new Set()));
    set.add(follower);
    return () => {
      set.delete(follower);
      if (set.size === 0) this.followers.delete(key);
    };
  }

  /** Forgets a deleted pod's logs. */
  remove(podUid: string): void {
    if (this.db) this.db.prepare('DELETE FROM pod_logs WHERE pod_uid = ?').run(podUid);
    for (const key of this.memory.keys()) if (key.startsWith(`${podUid}/`)) this.memory.delete(key);
  }
}

function keyOf(podUid: string, container: string): string {
  return `${podUid}/${container}`;
}
