// Load generator of the door benchmark, run as its own process so that its CPU is not the
// servers' process's: N sessions of the MCP SDK's own client over Streamable HTTP, each calling one
// tool in a loop after a second of warm-up; prints one JSON line of figures.
// Arguments: <url> <sessions> <seconds> <headers JSON> <tool> <arguments JSON>.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { runClosedLoop } from './closed-loop.js';

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
await runClosedLoop(
  clients,
  async (client) => {
    const result = await client.callTool({ name: tool!, arguments: args });
    return result.isError !== true;
  },
  seconds,
);
await Promise.all(clients.map((c) => c.close()));
process.exit(0);
