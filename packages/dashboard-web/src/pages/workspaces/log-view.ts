// Imports end in .js: the unit tests type-check this module as Node code, outside the bundler.
import { MAX_LINES, type LogLine } from './log-lines.js';
import type { Pod } from './types.js';

/** What the log viewer decides besides the lines: whose log, how much, and what it says. */

/** How many of the last lines to read. */
export const TAIL_CHOICES = [100, 500, 1000, MAX_LINES];

/** The pod whose log is shown first: the newest running one, else the newest, as the API does. */
export function defaultLogPod<P extends Pick<Pod, 'phase' | 'startedAt'>>(
  pods: readonly P[],
): P | undefined {
  const byStart = [...pods].sort((a, b) => (b.startedAt ?? '').localeCompare(a.startedAt ?? ''));
  return byStart.find((p) => p.phase === 'Running') ?? byStart[0];
}

/** The pod shown: the one chosen while it exists, else the default. */
export function logPod<P extends Pick<Pod, 'name' | 'phase' | 'startedAt'>>(
  pods: readonly P[],
  choice: string | null,
): P | undefined {
  return pods.find((p) => p.name === choice) ?? defaultLogPod(pods);
}

/** The container shown: the one chosen while the pod has it, else the pod's first. */
export function logContainer(
  pod: Pick<Pod, 'containers'> | undefined,
  choice: string | null,
): string | undefined {
  return pod?.containers.find((c) => c === choice) ?? pod?.containers[0] ?? undefined;
}

/** The query of a log request: the last lines, of the pod and container when there are. */
export function logQuery(
  tail: number,
  pod: string | undefined,
  container: string | undefined,
): URLSearchParams {
  const query = new URLSearchParams({ tailLines: String(tail) });
  if (pod !== undefined) query.set('pod', pod);
  if (container !== undefined) query.set('container', container);
  return query;
}

/** A number of lines as the sentences around it are written: 5,000. */
export const count = (n: number) => n.toLocaleString('en-US');

/** What the viewer says about the lines it holds: how many, how many match, how many gave way. */
export function countText(shown: number, total: number, dropped: number): string {
  const lines =
    shown !== total
      ? `${count(shown)} of ${count(total)} lines match the filter.`
      : `${count(total)} ${total === 1 ? 'line' : 'lines'}.`;
  const kept =
    dropped > 0
      ? `Only the newest ${count(MAX_LINES)} lines are kept: ${count(dropped)} older ones gave way.`
      : `The viewer keeps the newest ${count(MAX_LINES)} lines.`;
  return `${lines} ${kept}`;
}

/** The log's name for assistive technology: its pod, and its container when known. */
export function logLabel(pod: string, container: string | undefined): string {
  return `Log of pod ${pod}${container === undefined ? '' : `, container ${container}`}`;
}

/** A line's time as a clock reads it, in the reader's time zone: 14:03:07.250. */
export function clock(ms: number): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}`;
}

/** Whether a line is shown as time, level and message: JSON with at least one of them. */
export function isUnderstood(line: Pick<LogLine, 'json' | 'message' | 'level' | 'time'>): boolean {
  return line.json && (line.message !== '' || line.level !== null || line.time !== null);
}

/** The label of the button unfolding a line's other fields. */
export function fieldsLabel(fields: number, open: boolean): string {
  return open ? 'hide fields' : `+${fields} field${fields === 1 ? '' : 's'}`;
}

/** Whether a scrolled log is at its bottom, within a little slack. */
export function atBottom(
  log: { scrollHeight: number; scrollTop: number; clientHeight: number },
  slack = 24,
): boolean {
  return log.scrollHeight - log.scrollTop - log.clientHeight <= slack;
}
