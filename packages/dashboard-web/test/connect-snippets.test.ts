import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  API_KEY_PLACEHOLDER,
  claudeCodeCommand,
  connectionName,
  cursorConfig,
  INSPECTOR_PACKAGE,
  inspectorCommand,
  mcpUrls,
  parsePort,
  portForwardCommand,
  replicaOf,
  shellQuote,
  sshCommand,
  sshSetupCommand,
  vscodeConfig,
  type ConnectTarget,
} from '../src/pages/workspaces/connect-snippets.js';

const target: ConnectTarget = {
  origin: 'https://paddock.example',
  workspace: 'alpha',
  agent: 'coder',
};
const MCP = 'https://paddock.example/api/workspaces/alpha/agents/coder/mcp';

describe('mcpUrls', () => {
  it('names the Streamable HTTP and SSE endpoints through the dashboard', () => {
    assert.deepEqual(mcpUrls(target), {
      http: MCP,
      sse: 'https://paddock.example/api/workspaces/alpha/agents/coder/sse',
    });
  });
  it('encodes the names as path segments', () => {
    assert.equal(
      mcpUrls({ origin: 'http://127.0.0.1:3000', workspace: 'a b', agent: 'c/d' }).http,
      'http://127.0.0.1:3000/api/workspaces/a%20b/agents/c%2Fd/mcp',
    );
  });
});

describe('connectionName', () => {
  const cases: [ConnectTarget, number | undefined, string][] = [
    [target, undefined, 'alpha-coder'],
    [target, 0, 'alpha-coder'],
    [target, 2, 'alpha-coder-2'],
    [{ ...target, workspace: 'a b', agent: 'c/d' }, 0, 'a-b-c-d'],
  ];
  for (const [t, replica, want] of cases) {
    it(`${t.workspace}/${t.agent} replica ${replica} → ${want}`, () => {
      assert.equal(connectionName(t, replica), want);
    });
  }
});

describe('shellQuote', () => {
  const cases: [string, string][] = [
    ['plain', 'plain'],
    ['https://paddock.example:8443/x', 'https://paddock.example:8443/x'],
    ['@modelcontextprotocol/inspector', '@modelcontextprotocol/inspector'],
    ['', "''"],
    ['X-API-Key: <your API key>', "'X-API-Key: <your API key>'"],
    ["it's", "'it'\\''s'"],
    ['$HOME', "'$HOME'"],
  ];
  for (const [word, want] of cases) {
    it(`${JSON.stringify(word)} → ${want}`, () => assert.equal(shellQuote(word), want));
  }
});

describe('MCP client snippets', () => {
  it('Claude Code: claude mcp add over http with the key header', () => {
    assert.equal(
      claudeCodeCommand(target),
      `claude mcp add --transport http alpha-coder ${MCP} --header 'X-API-Key: <your API key>'`,
    );
    assert.equal(
      claudeCodeCommand(target, 'pk_123'),
      `claude mcp add --transport http alpha-coder ${MCP} --header 'X-API-Key: pk_123'`,
    );
  });

  it('VS Code: servers → http server, the key asked for through an input', () => {
    const config = JSON.parse(vscodeConfig(target)) as unknown;
    assert.deepEqual(config, {
      inputs: [
        {
          type: 'promptString',
          id: 'paddock-api-key',
          description: 'Paddock API key for alpha/coder',
          password: true,
        },
      ],
      servers: {
        'alpha-coder': {
          type: 'http',
          url: MCP,
          headers: { 'X-API-Key': '${input:paddock-api-key}' },
        },
      },
    });
    assert.ok(vscodeConfig(target).endsWith('}\n'));
  });

  it('Cursor: mcpServers → url and headers', () => {
    assert.deepEqual(JSON.parse(cursorConfig(target)), {
      mcpServers: { 'alpha-coder': { url: MCP, headers: { 'X-API-Key': API_KEY_PLACEHOLDER } } },
    });
  });

  it('MCP Inspector: the CLI lists the tools over http, the header last', () => {
    assert.equal(
      inspectorCommand(target),
      `npx -y @modelcontextprotocol/inspector@0.18.0 --cli ${MCP} --transport http --method tools/list --header 'X-API-Key: <your API key>'`,
    );
  });

  it('MCP Inspector: names the release the repository has', async () => {
    const installed = JSON.parse(
      await readFile(
        join(
          import.meta.dirname,
          '..',
          '..',
          '..',
          'node_modules',
          '@modelcontextprotocol',
          'inspector',
          'package.json',
        ),
        'utf8',
      ),
    ) as { version: string };
    assert.equal(INSPECTOR_PACKAGE, `@modelcontextprotocol/inspector@${installed.version}`);
  });
});

describe('replicaOf', () => {
  const cases: [string, number | null][] = [
    ['coder-0', 0],
    ['coder-12', 12],
    ['coder-01', null],
    ['coder-', null],
    ['coder-x', null],
    ['other-0', null],
    ['coder-helper-0', null],
  ];
  for (const [pod, want] of cases) {
    it(`${pod} → ${want}`, () => assert.equal(replicaOf('coder', pod), want));
  }
});

describe('paddock-forward commands', () => {
  const through =
    "--dashboard https://paddock.example --workspace alpha --agent coder --api-key '<your API key>'";
  it('ssh-setup for the first replica, without --replica', () => {
    assert.equal(sshSetupCommand(target), `paddock-forward ssh-setup alpha-coder ${through}`);
    assert.equal(sshCommand(target), 'ssh alpha-coder');
  });
  it('ssh-setup for another replica: its own host name and --replica', () => {
    assert.equal(
      sshSetupCommand(target, 1, 'pk_1'),
      'paddock-forward ssh-setup alpha-coder-1 --dashboard https://paddock.example --workspace alpha --agent coder --replica 1 --api-key pk_1',
    );
    assert.equal(sshCommand(target, 1), 'ssh alpha-coder-1');
  });
  it('a port forward', () => {
    assert.equal(portForwardCommand(target, 3000), `paddock-forward --port 3000 ${through}`);
    assert.equal(
      portForwardCommand(target, 8080, 2),
      "paddock-forward --port 8080 --dashboard https://paddock.example --workspace alpha --agent coder --replica 2 --api-key '<your API key>'",
    );
  });
});

describe('parsePort', () => {
  const cases: [string, number | null][] = [
    ['3000', 3000],
    [' 8080 ', 8080],
    ['1', 1],
    ['65535', 65535],
    ['0', null],
    ['65536', null],
    ['', null],
    ['30a', null],
    ['-1', null],
    ['3000.5', null],
  ];
  for (const [text, want] of cases) {
    it(`${JSON.stringify(text)} → ${want}`, () => assert.equal(parsePort(text), want));
  }
});
