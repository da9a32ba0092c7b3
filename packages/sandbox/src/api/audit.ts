/**
 * The audit lines of the specification: exactly one plain-text line on stderr when each
 * port-forward, exec and SSH session closes, and one per SSH key registration.
 */
export type AuditSink = (line: string) => void;

export const stderrAudit: AuditSink = (line) => {
  process.stderr.write(`${line}\n`);
};

/** The subject as audit lines show it: `unknown` when it was missing. */
function subject(sub: string | undefined): string {
  return sub === undefined || sub === '' ? 'unknown' : sub.replace(/\s/g, '_');
}

/**
 * A duration as Go's time.Duration prints it (the format the specification's lines come from):
 * `0s`, `500ns`, `850µs`, `12.5ms`, `1.25s`, `2m3.5s`, `1h0m0.001s`. Computed on whole nanoseconds
 * so no unit ever rounds up into the next one.
 */
export function formatDuration(ms: number): string {
  const ns = Math.round(ms * 1e6);
  if (ns <= 0) return '0s';
  if (ns < 1e3) return `${ns}ns`;
  if (ns < 1e6) return `${fraction(ns, 1e3)}µs`;
  if (ns < 1e9) return `${fraction(ns, 1e6)}ms`;
  const hours = Math.floor(ns / 3.6e12);
  const minutes = Math.floor((ns % 3.6e12) / 6e10);
  const seconds = `${fraction(ns % 6e10, 1e9)}s`;
  if (hours > 0) return `${hours}h${minutes}m${seconds}`;
  if (minutes > 0) return `${minutes}m${seconds}`;
  return seconds;
}

/** `value / unit` with the exact decimal fraction, trailing zeros dropped (as Go prints it). */
function fraction(value: number, unit: number): string {
  const whole = Math.floor(value / unit);
  const rest = value % unit;
  if (rest === 0) return String(whole);
  const digits = String(unit).length - 1;
  return `${whole}.${String(rest).padStart(digits, '0').replace(/0+$/, '')}`;
}

export const auditLine = {
  portForward: (a: {
    sub: string | undefined;
    port: number;
    bytesIn: number;
    bytesOut: number;
    ms: number;
  }) =>
    `api port-forward sub=${subject(a.sub)} port=${a.port} in=${a.bytesIn} out=${a.bytesOut} dur=${formatDuration(a.ms)}`,
  exec: (a: { sub: string | undefined; ms: number; exit: number }) =>
    `api exec sub=${subject(a.sub)} duration=${formatDuration(a.ms)} exit=${a.exit}`,
  ssh: (a: { sub: string | undefined; ms: number; exit: number }) =>
    `api ssh sub=${subject(a.sub)} duration=${formatDuration(a.ms)} exit=${a.exit}`,
  sshAuthorizedKey: (a: { sub: string | undefined; type: string }) =>
    `api ssh-authorized-keys sub=${subject(a.sub)} type=${a.type}`,
};
