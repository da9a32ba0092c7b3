// The arguments of a tool call arrive as JSON text (whole, or in pieces that were joined): what
// the model meant, or why it cannot be used, which the loop tells the model instead of crashing.

export interface ParsedArguments {
  arguments: unknown;
  invalidArguments?: string;
}

export function parseToolArguments(text: string): ParsedArguments {
  // A tool without parameters is often called with no argument text at all.
  if (text.trim() === '') return { arguments: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      arguments: text,
      invalidArguments: `the arguments are not valid JSON (${(error as Error).message})`,
    };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { arguments: value, invalidArguments: 'the arguments must be a JSON object' };
  }
  return { arguments: value };
}
