// Every run of this replica, kept on disk as it happens: one JSON Lines file per run, its first
// line the run itself and each further line one transcript event. A run whose file has no outcome
// when the store opens was cut short by a restart: it is marked interrupted, never resumed.
import { randomUUID } from 'node:crypto';
import { mkdir, open, readdir, readFile, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { Outcome, TranscriptEntry, TranscriptEvent } from '../transcript.js';

/** Runs kept; the oldest finished ones are deleted beyond it. */
export const MAX_RUNS_KEPT = 500;
/** Bytes of one run's transcript; beyond it only the outcome is still written. */
export const MAX_TRANSCRIPT_BYTES = 32 * 1024 * 1024;
/** The reason given to a run found unfinished when the store opens. */
export const INTERRUPTED_REASON = 'the agent restarted during the run';

/** What a run was asked, by whom and when. */
export interface RunRequest {
  task: string;
  /** The PromptPack prompt it was made from, with its variables. */
  prompt?: { name: string; variables: Record<string, string> };
  /** Who started it (the dashboard's user name). */
  startedBy?: string;
}

/** A run as lists show it. */
export interface RunSummary extends RunRequest {
  id: string;
  createdAt: string;
  /** The last event's number. */
  lastSeq: number;
  outcome?: Outcome;
  /** Tokens and USD summed over its model calls. */
  usage: { input: number; output: number; usd: number };
}

interface RunHeader extends RunRequest {
  type: 'run';
  id: string;
  createdAt: string;
}

type Listener = (event: TranscriptEvent) => void;

interface OpenRun {
  summary: RunSummary;
  file?: FileHandle;
  bytes: number;
  listeners: Set<Listener>;
  /** The writes in flight, one after the other: the file keeps the events' order. */
  written: Promise<void>;
}

const RUN_FILE = /^([0-9a-f-]{36})\.jsonl$/;

/**
 * The lines of a file that parse. A line torn by a crash mid-write is left out: the store, opened
 * again, starts its next line after it (the outcome that marks the run interrupted).
 */
function parseLines(text: string): unknown[] {
  const parsed: unknown[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      parsed.push(JSON.parse(line));
    } catch {
      continue;
    }
  }
  return parsed;
}

/** The summary a run's lines add up to. */
export function summarize(header: RunHeader, events: readonly TranscriptEvent[]): RunSummary {
  const { type: _type, ...request } = header;
  const empty: RunSummary = { ...request, lastSeq: 0, usage: { input: 0, output: 0, usd: 0 } };
  return events.reduce(withEvent, empty);
}

/** The summary with one more event. */
function withEvent(summary: RunSummary, event: TranscriptEvent): RunSummary {
  const next = { ...summary, lastSeq: Math.max(summary.lastSeq, event.seq) };
  if (event.type === 'usage') {
    next.usage = {
      input: summary.usage.input + event.input,
      output: summary.usage.output + event.output,
      usd: summary.usage.usd + event.usd,
    };
  } else if (event.type === 'outcome') {
    const { type: _type, seq: _seq, ...outcome } = event;
    next.outcome = outcome;
  }
  return next;
}

export class RunStore {
  private readonly runs = new Map<string, OpenRun>();

  private constructor(
    private readonly dir: string,
    private readonly now: () => Date,
  ) {}

  /** Opens the folder (made if missing), marking each unfinished run interrupted. */
  static async open(dir: string, now: () => Date = () => new Date()): Promise<RunStore> {
    await mkdir(dir, { recursive: true });
    const store = new RunStore(dir, now);
    for (const name of await readdir(dir)) {
      const id = RUN_FILE.exec(name)?.[1];
      if (id === undefined) continue;
      const lines = parseLines(await readFile(join(dir, name), 'utf8'));
      const header = lines[0] as RunHeader | undefined;
      if (header?.type !== 'run' || header.id !== id) continue;
      const events = lines.slice(1) as TranscriptEvent[];
      const run: OpenRun = {
        summary: summarize(header, events),
        bytes: 0,
        listeners: new Set(),
        written: Promise.resolve(),
      };
      store.runs.set(id, run);
      if (run.summary.outcome === undefined) {
        run.file = await open(join(dir, name), 'a');
        // After a torn line, the next event starts on a line of its own.
        await run.file.write('\n');
        await store.append(id, {
          type: 'outcome',
          status: 'interrupted',
          reason: INTERRUPTED_REASON,
        });
      }
    }
    return store;
  }

  /** Starts a run's file; its events follow through append. */
  async create(request: RunRequest): Promise<RunSummary> {
    const id = randomUUID();
    const header: RunHeader = { type: 'run', id, createdAt: this.now().toISOString(), ...request };
    const file = await open(this.pathOf(id), 'wx');
    const line = `${JSON.stringify(header)}\n`;
    await file.write(line);
    await file.sync();
    const run: OpenRun = {
      summary: summarize(header, []),
      file,
      bytes: Buffer.byteLength(line),
      listeners: new Set(),
      written: Promise.resolve(),
    };
    this.runs.set(id, run);
    await this.prune();
    return { ...run.summary };
  }

  /**
   * Writes the run's next event and tells its followers. The outcome closes the run, synced to
   * disk; past MAX_TRANSCRIPT_BYTES nothing but the outcome is written.
   */
  async append(id: string, entry: TranscriptEntry): Promise<TranscriptEvent> {
    const run = this.runs.get(id);
    const file = run?.file;
    if (run === undefined || file === undefined) throw new Error(`run ${id} is not open`);
    const event: TranscriptEvent = { ...entry, seq: run.summary.lastSeq + 1 };
    const line = `${JSON.stringify(event)}\n`;
    const size = Buffer.byteLength(line);
    const closing = event.type === 'outcome';
    if (!closing && run.bytes + size > MAX_TRANSCRIPT_BYTES) return event;
    // Numbered and counted now, written in turn: callers need not wait for one another.
    run.bytes += size;
    run.summary = withEvent(run.summary, event);
    if (closing) run.file = undefined;
    run.written = run.written.then(async () => {
      await file.write(line);
      if (closing) {
        await file.sync();
        await file.close();
      }
      for (const listener of run.listeners) listener(event);
    });
    await run.written;
    return event;
  }

  /** The runs, newest first. */
  list(): RunSummary[] {
    return [...this.runs.values()]
      .map((run) => ({ ...run.summary }))
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  get(id: string): RunSummary | undefined {
    const run = this.runs.get(id);
    return run && { ...run.summary };
  }

  /** The run's events after `afterSeq`, from its file. */
  async events(id: string, afterSeq = 0): Promise<TranscriptEvent[]> {
    if (!this.runs.has(id)) return [];
    const lines = parseLines(await readFile(this.pathOf(id), 'utf8'));
    return (lines.slice(1) as TranscriptEvent[]).filter((event) => event.seq > afterSeq);
  }

  /**
   * Every event after `afterSeq`, those written so far then the live ones, each once and in order,
   * until the outcome or `stop()`. Resolves once the past events were handed over.
   */
  async follow(id: string, afterSeq: number, listener: Listener): Promise<{ stop: () => void }> {
    const run = this.runs.get(id);
    if (run === undefined) throw new Error(`no run ${id}`);
    let last = afterSeq;
    const pending: TranscriptEvent[] = [];
    let replaying = true;
    const deliver = (event: TranscriptEvent) => {
      if (event.seq <= last) return;
      last = event.seq;
      listener(event);
    };
    const live: Listener = (event) => (replaying ? pending.push(event) : deliver(event));
    run.listeners.add(live);
    const stop = () => run.listeners.delete(live);
    for (const event of await this.events(id, afterSeq)) deliver(event);
    for (const event of pending) deliver(event);
    replaying = false;
    return { stop };
  }

  /** Closes the open files (runs in flight stay unfinished, to be marked interrupted). */
  async close(): Promise<void> {
    for (const run of this.runs.values()) {
      const file = run.file;
      run.file = undefined;
      await file?.close();
    }
  }

  private pathOf(id: string): string {
    return join(this.dir, `${id}.jsonl`);
  }

  /** Deletes the oldest finished runs beyond MAX_RUNS_KEPT. */
  private async prune(): Promise<void> {
    const finished = this.list()
      .filter((run) => run.outcome !== undefined)
      .reverse();
    let excess = this.runs.size - MAX_RUNS_KEPT;
    for (const run of finished) {
      if (excess <= 0) break;
      this.runs.delete(run.id);
      await rm(this.pathOf(run.id), { force: true });
      excess -= 1;
    }
  }
}
