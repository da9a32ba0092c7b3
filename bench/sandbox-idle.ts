// The sandbox at rest: resident memory of one idle paddock-sandbox (RSS, and its anonymous and
// file-backed parts) at 1 s, 3 s, 10 s and settled after /readyz, with the pod's Node.js flags,
// for MCP alone and then with each feature of the human API added, so what each feature costs
// shows. The sandboxes of a round run side by side (memory, not CPU, is measured).
// Env: IDLE_NODE_FLAGS overrides the flags (space-separated; "none" for none), IDLE_SETTLE_S the
// settled mark (45 s: V8's memory reducer shrinks an idle heap after some tens of seconds),
// IDLE_SANDBOX_BIN another build's paddock-sandbox.js (to compare a change with what it replaced).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SANDBOX_NODE_FLAGS } from '@paddock/common';
import { eventuallyOk, SANDBOX_BIN } from '@paddock/testing';
import { startServer } from './lib/processes.js';
import { printTable, type Row } from './lib/table.js';

const MARKS_S = [1, 3, 10, Number(process.env.IDLE_SETTLE_S ?? 45)];
const envFlags = process.env.IDLE_NODE_FLAGS;
const BIN = process.env.IDLE_SANDBOX_BIN ?? SANDBOX_BIN;
const NODE_FLAGS =
  envFlags === undefined ? SANDBOX_NODE_FLAGS : envFlags === 'none' ? [] : envFlags.split(' ');

const CONFIGS: Record<string, string[]> = {
  'MCP only': [],
  'API (docs only)': ['-api-addr', '127.0.0.1:0'],
  '+ files': ['-api-addr', '127.0.0.1:0', '-enable-api'],
  '+ exec': ['-api-addr', '127.0.0.1:0', '-enable-exec'],
  '+ port-forward': ['-api-addr', '127.0.0.1:0', '-enable-port-forward'],
  '+ ssh': ['-api-addr', '127.0.0.1:0', '-enable-ssh'],
  'every feature (pod)': [
    '-api-addr',
    '127.0.0.1:0',
    '-enable-api',
    '-enable-exec',
    '-enable-port-forward',
    '-enable-ssh',
  ],
};
const only = process.argv.slice(3);
const chosen = Object.entries(CONFIGS).filter(([name]) => only.length === 0 || only.includes(name));

interface Memory {
  rss: number;
  anon: number;
  file: number;
}

async function memory(pid: number): Promise<Memory> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1]);
  return { rss: kib('VmRSS') / 1024, anon: kib('RssAnon') / 1024, file: kib('RssFile') / 1024 };
}

async function measure(name: string, flags: string[]): Promise<Row> {
  const workspace = await mkdtemp(join(tmpdir(), 'paddock-idle-'));
  const sandbox = await startServer(
    process.execPath,
    [...NODE_FLAGS, BIN, '-addr', '127.0.0.1:0', '-dev-mode', '-workspace', workspace, ...flags],
    /"addr":"127\.0\.0\.1:(\d+)"/,
    { SVC_LOG_FORMAT: 'json' },
  );
  try {
    await eventuallyOk('readyz', async () => {
      const res = await fetch(`http://127.0.0.1:${sandbox.port}/readyz`);
      return res.status === 200 ? true : undefined;
    });
    const ready = Date.now();
    const row: Row = { sandbox: name };
    for (const mark of MARKS_S) {
      await new Promise((r) => setTimeout(r, Math.max(0, ready + mark * 1000 - Date.now())));
      const m = await memory(sandbox.child.pid!);
      row[`${mark}s RSS`] = round(m.rss);
      if (mark === MARKS_S.at(-1)) {
        row[`${mark}s anon`] = round(m.anon);
        row[`${mark}s file`] = round(m.file);
      }
    }
    return row;
  } finally {
    await sandbox.stop();
    await rm(workspace, { recursive: true, force: true });
  }
}

const round = (n: number) => Math.round(n * 10) / 10;

const rows = await Promise.all(chosen.map(([name, flags]) => measure(name, flags)));
printTable(
  `paddock-sandbox idle memory, MiB (node flags: ${NODE_FLAGS.join(' ') || 'none'})`,
  rows,
);
