/** A listen address, `host:port`, as every Paddock service takes it. */
export interface Address {
  host: string;
  port: number;
}

/**
 * Parses `host:port`, `[v6]:port` or `:port` (all interfaces, as Go's net.Listen reads it).
 * Port 0 asks the operating system for a free port. Returns an error text instead of throwing so
 * callers can gather every problem before reporting.
 */
export function parseAddress(text: string): Address | { error: string } {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]\s]*)):(\d{1,5})$/.exec(text.trim());
  if (!match) return { error: `"${text}" is not an address of the form host:port` };
  const port = Number(match[3]);
  if (port > 65535) return { error: `port ${port} in "${text}" is out of range (0-65535)` };
  const host = match[1] ?? match[2] ?? '';
  return { host: host === '' ? '0.0.0.0' : host, port };
}

/** The address as a person would type it back, with IPv6 hosts in brackets. */
export function formatAddress({ host, port }: Address): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** An http:// URL for a bound address; the unspecified host is shown as loopback. */
export function httpUrl(address: Address, path = ''): string {
  const host =
    address.host === '0.0.0.0' ? '127.0.0.1' : address.host === '::' ? '::1' : address.host;
  return `http://${formatAddress({ host, port: address.port })}${path}`;
}
