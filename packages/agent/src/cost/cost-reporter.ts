// The agent's spend, written to its AgentRuntime's status.costUsage as runs spend it. One write at
// a time: spend added meanwhile goes out with the next, so the API server sees at most one patch
// in flight however fast the model calls come.
import { addSpend, reportOf, spendFrom, type CostReport, type Spend } from './spend.js';

export interface CostReporterOptions {
  /** The report the status holds now (the agent may have restarted mid-day). */
  read: () => Promise<CostReport | undefined>;
  write: (report: CostReport) => Promise<void>;
  now: () => Date;
  /** A write that failed; the next spend (or flush) tries again. */
  onError: (error: unknown) => void;
}

export class CostReporter {
  private spend: Spend | undefined;
  private written: string | undefined;
  private writing: Promise<void> | undefined;
  private dirty = false;

  constructor(private readonly options: CostReporterOptions) {}

  /** Reads what the status says already, so that spend adds to it. */
  async start(): Promise<void> {
    this.spend = spendFrom(await this.options.read(), this.options.now());
  }

  add(usd: number): void {
    if (this.spend === undefined) throw new Error('the cost reporter has not started');
    this.spend = addSpend(this.spend, usd, this.options.now());
    this.dirty = true;
    this.writing ??= this.drain();
  }

  /** Resolves when everything added so far is written (or failed, reported through onError). */
  async flushed(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private async drain(): Promise<void> {
    try {
      while (this.dirty && this.spend) {
        this.dirty = false;
        const report = reportOf(this.spend);
        const text = JSON.stringify(report);
        // Spend below a cent changes nothing written: no patch for it.
        if (text === this.written) continue;
        try {
          await this.options.write(report);
          this.written = text;
        } catch (error) {
          this.options.onError(error);
        }
      }
    } finally {
      this.writing = undefined;
    }
  }
}
