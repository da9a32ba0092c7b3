/** How long ago, the way kubectl's AGE column says it (apimachinery's duration.HumanDuration). */
export function humanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8)
    return hours % 24 === 0 ? `${hours / 24}d` : `${Math.floor(hours / 24)}d${hours % 24}h`;
  const days = Math.floor(hours / 24);
  if (hours < 24 * 365 * 2) return `${days}d`;
  if (hours < 24 * 365 * 8) {
    const rest = days % 365;
    return rest === 0 ? `${Math.floor(days / 365)}y` : `${Math.floor(days / 365)}y${rest}d`;
  }
  return `${Math.floor(days / 365)}y`;
}

/** The age of a timestamp, or `<unknown>` as kubectl prints a missing one. */
export function ageOf(time: unknown, now: number): string {
  if (typeof time !== 'string') return '<unknown>';
  const at = Date.parse(time);
  return Number.isNaN(at) ? '<invalid>' : humanDuration(now - at);
}
