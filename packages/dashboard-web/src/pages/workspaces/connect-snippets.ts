/**
 * What the Connect panel offers to copy: an agent's MCP addresses through the dashboard, client
 * configurations, and the paddock-forward commands for SSH and ports. Pure, without imports, so
 * the tests run it as it is.
 */

/** Stands for the user's API key in snippets: they paste their own. */
export const API_KEY_PLACEHOLDER = '<your API key>';

/** The header the dashboard reads an API key from. */
export const API_KEY_HEADER = 'X-API-Key';

/** The VS Code input that asks for the key, so that it is never written into mcp.json. */
export const VSCODE_KEY_INPUT = 'paddock-api-key';

export interface ConnectTarget {
  /** The dashboard's origin, as the browser sees it: `https://paddock.example`. */
  origin: string;
  workspace: string;
  agent: string;
}

/** The agent's MCP endpoints through the dashboard: Streamable HTTP and legacy SSE. */
export function mcpUrls(target: ConnectTarget): { http: string; sse: string } {
  const base = `${target.origin}/api/workspaces/${encodeURIComponent(target.workspace)}/agents/${encodeURIComponent(target.agent)}`;
  return { http: `${base}/mcp`, sse: `${base}/sse` };
}

/**
 * The name the agent goes by in an MCP client and as an ssh host: `<workspace>-<agent>`, with a
 * replica other than the first added. Workspace and agent names are DNS labels, so the name is
 * fit for both (letters, digits and `-`); anything else becomes `-` all the same.
 */
export function connectionName(target: ConnectTarget, replica = 0): string {
  const name = `${target.workspace}-${target.agent}${replica === 0 ? '' : `-${replica}`}`;
  return name.replace(/[^A-Za-z0-9._-]/g, '-');
}

/** A word as a POSIX shell reads it: as it is when it is safe, else in single quotes. */
export function shellQuote(word: string): string {
  if (word !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

function shellLine(words: string[]): string {
  return words.map(shellQuote).join(' ');
}

/** Claude Code: `claude mcp add --transport http NAME URL --header "X-API-Key: KEY"`. */
export function claudeCodeCommand(target: ConnectTarget, key = API_KEY_PLACEHOLDER): string {
  return shellLine([
    'claude',
    'mcp',
    'add',
    '--transport',
    'http',
    connectionName(target),
    mcpUrls(target).http,
    '--header',
    `${API_KEY_HEADER}: ${key}`,
  ]);
}

/**
 * VS Code's `.vscode/mcp.json`: an http server whose key header comes from an input, which VS
 * Code asks for once and keeps in its secret storage, so the file holds no secret and may be
 * shared with the workspace's repository.
 */
export function vscodeConfig(target: ConnectTarget): string {
  const config = {
    inputs: [
      {
        type: 'promptString',
        id: VSCODE_KEY_INPUT,
        description: `Paddock API key for ${target.workspace}/${target.agent}`,
        password: true,
      },
    ],
    servers: {
      [connectionName(target)]: {
        type: 'http',
        url: mcpUrls(target).http,
        headers: { [API_KEY_HEADER]: `\${input:${VSCODE_KEY_INPUT}}` },
      },
    },
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

/** Cursor's `~/.cursor/mcp.json`: a remote server by its URL, with the key header. */
export function cursorConfig(target: ConnectTarget, key = API_KEY_PLACEHOLDER): string {
  const config = {
    mcpServers: {
      [connectionName(target)]: {
        url: mcpUrls(target).http,
        headers: { [API_KEY_HEADER]: key },
      },
    },
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

/**
 * The MCP Inspector release the commands name (the one the repository tests with): unpinned, npx
 * picks a release by the Node.js version, and their command lines differ.
 */
export const INSPECTOR_PACKAGE = '@modelcontextprotocol/inspector@0.18.0';

/** The MCP Inspector's command-line mode, listing the agent's tools. */
export function inspectorCommand(target: ConnectTarget, key = API_KEY_PLACEHOLDER): string {
  return shellLine([
    'npx',
    // Without -y, npx outside a terminal refuses to install the package and stops.
    '-y',
    INSPECTOR_PACKAGE,
    '--cli',
    mcpUrls(target).http,
    '--transport',
    'http',
    '--method',
    'tools/list',
    // Last: --header takes several values, and would take anything after it as one more.
    '--header',
    `${API_KEY_HEADER}: ${key}`,
  ]);
}

/** The replica number of one of the agent's pods (`<agent>-<n>`), or null for another name. */
export function replicaOf(agent: string, pod: string): number | null {
  if (!pod.startsWith(`${agent}-`)) return null;
  const rest = pod.slice(agent.length + 1);
  return /^(0|[1-9]\d*)$/.test(rest) ? Number(rest) : null;
}

/** The flags that take paddock-forward through the dashboard to one replica's sandbox. */
function forwardTarget(target: ConnectTarget, replica: number, key: string): string[] {
  return [
    '--dashboard',
    target.origin,
    '--workspace',
    target.workspace,
    '--agent',
    target.agent,
    ...(replica === 0 ? [] : ['--replica', String(replica)]),
    '--api-key',
    key,
  ];
}

/** `paddock-forward ssh-setup NAME …`: a key, registered, and `Host NAME` in ~/.ssh/config. */
export function sshSetupCommand(
  target: ConnectTarget,
  replica = 0,
  key = API_KEY_PLACEHOLDER,
): string {
  return shellLine([
    'paddock-forward',
    'ssh-setup',
    connectionName(target, replica),
    ...forwardTarget(target, replica, key),
  ]);
}

/** `ssh NAME`, once ssh-setup wrote the host. */
export function sshCommand(target: ConnectTarget, replica = 0): string {
  return shellLine(['ssh', connectionName(target, replica)]);
}

/** `paddock-forward --port N …`: the sandbox's port N on this machine's 127.0.0.1:N. */
export function portForwardCommand(
  target: ConnectTarget,
  port: number,
  replica = 0,
  key = API_KEY_PLACEHOLDER,
): string {
  return shellLine([
    'paddock-forward',
    '--port',
    String(port),
    ...forwardTarget(target, replica, key),
  ]);
}

/** A TCP port from a form field, or null when it is not one. */
export function parsePort(text: string): number | null {
  if (!/^\d{1,5}$/.test(text.trim())) return null;
  const port = Number(text.trim());
  return port >= 1 && port <= 65535 ? port : null;
}
