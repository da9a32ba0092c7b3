/**
 * One line saying why a call failed. Network errors from fetch hide their reason (ECONNREFUSED,
 * a timeout) in `cause`, which is what a person needs to see.
 */
export function errorMessage(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'TimeoutError') return `no answer in time (${error.message})`;
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    const detail = typeof code === 'string' && !cause.message.includes(code) ? `${code}: ` : '';
    return `${error.message}: ${detail}${cause.message}`;
  }
  return error.message;
}
