import SqliteDatabase, { type Database } from 'better-sqlite3';
import type { KubeObject } from '../contracts.js';
import type { Change, ChangeType, Persistence, Snapshot } from './persistence.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS objects (
  resource TEXT NOT NULL, namespace TEXT NOT NULL, name TEXT NOT NULL, json TEXT NOT NULL,
  PRIMARY KEY (resource, namespace, name)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS changes (
  rv INTEGER PRIMARY KEY, type TEXT NOT NULL,
  resource TEXT NOT NULL, namespace TEXT NOT NULL, name TEXT NOT NULL, json TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS pod_logs (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, pod_uid TEXT NOT NULL, container TEXT NOT NULL,
  time TEXT NOT NULL, line TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS pod_logs_by_pod ON pod_logs (pod_uid, container, seq);
`;

/** Opens (creating if need be) the cluster's database file. */
export function openDatabase(file: string): Database {
  const db = new SqliteDatabase(file);
  db.pragma('journal_mode = WAL');
  // In WAL mode NORMAL syncs at checkpoints only: a killed process loses nothing committed (the
  // operating system holds the writes); only a power cut could lose the last transactions.
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.exec(SCHEMA);
  return db;
}

interface Row {
  resource: string;
  namespace: string;
  name: string;
  json: string;
}

/** Write-through persistence in SQLite: every change is one transaction. */
export function sqlitePersistence(db: Database): Persistence {
  const upsert = db.prepare(
    'INSERT INTO objects (resource, namespace, name, json) VALUES (?, ?, ?, ?) ' +
      'ON CONFLICT (resource, namespace, name) DO UPDATE SET json = excluded.json',
  );
  const remove = db.prepare(
    'DELETE FROM objects WHERE resource = ? AND namespace = ? AND name = ?',
  );
  const log = db.prepare(
    'INSERT INTO changes (rv, type, resource, namespace, name, json) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const setCounter = db.prepare(
    'INSERT INTO counters (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
  );
  const getCounter = db.prepare<[string], { value: number }>(
    'SELECT value FROM counters WHERE name = ?',
  );
  const trim = db.prepare('DELETE FROM changes WHERE rv <= ?');

  const commit = db.transaction((change: Change, json: string) => {
    if (change.type === 'DELETED') remove.run(change.resource, change.namespace, change.name);
    else upsert.run(change.resource, change.namespace, change.name, json);
    log.run(
      change.resourceVersion,
      change.type,
      change.resource,
      change.namespace,
      change.name,
      json,
    );
    setCounter.run('resourceVersion', change.resourceVersion);
  });
  const compact = db.transaction((through: number) => {
    trim.run(through);
    setCounter.run('compactedThrough', through);
  });

  return {
    load(): Snapshot {
      const objects = db
        .prepare<[], Row>('SELECT resource, namespace, name, json FROM objects')
        .all()
        .map((row) => ({ resource: row.resource, object: JSON.parse(row.json) as KubeObject }));
      const changes = db
        .prepare<[], Row & { rv: number; type: ChangeType }>(
          'SELECT rv, type, resource, namespace, name, json FROM changes ORDER BY rv',
        )
        .all()
        .map((row) => ({
          type: row.type,
          resourceVersion: row.rv,
          resource: row.resource,
          namespace: row.namespace,
          name: row.name,
          object: JSON.parse(row.json) as KubeObject,
        }));
      return {
        objects,
        changes,
        resourceVersion: getCounter.get('resourceVersion')?.value ?? 0,
        compactedThrough: getCounter.get('compactedThrough')?.value ?? 0,
      };
    },
    commit: (change, json) => void commit(change, json),
    compact: (through) => void compact(through),
    close: () => db.close(),
  };
}
