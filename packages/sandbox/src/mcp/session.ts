import type { ProcessGroups } from './process-group.js';
import { BackgroundShells } from './shells.js';

/** What the sandbox knows of a file as of the last Read or Write in this session. */
export interface FileStamp {
  mtimeMs: number;
  size: number;
}

/**
 * The state one MCP session carries between tool calls. It ends with the session: `dispose` is
 * called when the client disconnects or the process shuts down.
 */
export class SessionState {
  /** Real path → stamp at its last Read (or Write) in this session; Write and Edit require one. */
  readonly reads = new Map<string, FileStamp>();
  /** Commands started with Bash's run_in_background; they end with the session. */
  readonly shells: BackgroundShells;

  /** `groups`: the registry of the listener the session belongs to, where its commands run. */
  constructor(readonly groups: ProcessGroups) {
    this.shells = new BackgroundShells(groups);
  }

  /** Forgets the reads, kills the background shells and waits until their processes are gone. */
  async dispose(): Promise<void> {
    this.reads.clear();
    await this.shells.dispose();
  }
}
