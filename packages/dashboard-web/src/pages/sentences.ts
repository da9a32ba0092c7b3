/** The API's own message as a sentence: capital first letter, full stop at the end. */
export function asSentence(message: string): string {
  const text = message.trim();
  if (text === '') return 'Something went wrong. Please try again.';
  const capital = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/** The error code an API answer carries (`ApiError.code`), if the error is one. */
export function errorCode(err: unknown): string | undefined {
  return err instanceof Error && 'code' in err && typeof err.code === 'string'
    ? err.code
    : undefined;
}
