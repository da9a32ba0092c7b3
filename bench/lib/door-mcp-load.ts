// Load generator of the door benchmark, run as its own process so that its CPU is not the
// servers' process's: N sessions of the MCP SDK's own client over Streamable HTTP, each calling one
// tool in a loop after a second of warm-up; prints one JSON line of figures.
// Arguments: <url> <sessions> <seconds> <headers JSON> <tool> <arguments JSON>.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [url, sessionsText, secondsText, headersJson, tool, argsJson] = process.argv.slice(2);
const sessions = Number(sessionsText);
const seconds = Number(secondsText);
const headers = JSON.parse(headersJson!) as Record<string, string>;
const args = JSON.parse(argsJson!) as Record<string, unknown>;

async function openSession(): Promise<Client> {
  const client = new Client({ name: 'door-bench', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url!), { requestInit: { headers } }),
  );
  return client;
}

const clients = await Promise.all(Array.from({ length: sessions }, openSession));
let measuring = false;
let stop = false;
const latencies: number[] = [];
let errors = 0;

async function loop(client: Client): Promise<void> {
  while (!stop) {
    const started = performance.now();
    try {
      const result = await client.callTool({ name: tool!, arguments: args });
      if (result.isError) errors++;
    } catch {
      errors++;
    }
    if (measuring) latencies.push(performance.now() - started);
  }
}

const loops = clients.map(loop);
await new Promise((r) => setTimeout(r, 1000)); // warm-up
measuring = true;
const started = performance.now();
await new Promise((r) => setTimeout(r, seconds * 1000));
measuring = false;
const elapsed = (performance.now() - started) / 1000;
stop = true;
await Promise.all(loops);
await Promise.all(clients.map((c) => c.close()));

latencies.sort((a, b) => a - b);
const pct = (p: number) =>
  latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
console.log(
  JSON.stringify({
    calls: latencies.length,
    callsPerSecond: latencies.length / elapsed,
    p50Ms: pct(50),
    p99Ms: pct(99),
    errors,
  }),
);
process.exit(0);
