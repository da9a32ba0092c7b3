const COLORS = [36, 35, 33, 32, 34, 31] as const;

/** The ANSI colour of the i-th component's prefix. */
export function prefixColor(index: number): number {
  return COLORS[index % COLORS.length]!;
}

/** One output line of a component, prefixed with its name padded to a common width. */
export function prefixLine(name: string, width: number, line: string, color?: number): string {
  const label = name.padEnd(width);
  return color === undefined ? `${label} | ${line}` : `\x1b[${color}m${label} |\x1b[0m ${line}`;
}
