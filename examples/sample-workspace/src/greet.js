// Greets a person by name; the sample task for an agent is to add a language option.
export function greet(name) {
  if (!name) throw new Error('name is required');
  return `Hello, ${name}!`;
}
