import { useId, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import {
  API_KEY_PLACEHOLDER,
  claudeCodeCommand,
  connectionName,
  cursorConfig,
  inspectorCommand,
  mcpUrls,
  parsePort,
  portForwardCommand,
  replicaOf,
  sshCommand,
  sshSetupCommand,
  vscodeConfig,
  type ConnectTarget,
} from './connect-snippets';
import type { WorkspacePermissions } from './types';
import './connect.css';

/** Where a signed-in user makes API keys (app.tsx). */
const API_KEYS_PAGE = '/settings/api-keys';

/** What was copied last, and whether it worked: one snippet's status shows it. */
interface CopyOutcome {
  key: string;
  ok: boolean;
}

/**
 * The Connect tab: how to reach the agent from one's own tools. Its MCP server through the
 * dashboard, with ready configurations for MCP clients, and paddock-forward commands for SSH
 * (and VS Code over SSH) and for forwarding a port. Only what the user's role allows is shown.
 */
export function ConnectPanel({
  workspace,
  agent,
  pods,
  permissions,
}: {
  workspace: string;
  agent: string;
  pods: string[];
  permissions: WorkspacePermissions;
}) {
  const id = useId();
  const [copied, setCopied] = useState<CopyOutcome | null>(null);
  // Compared with true: an answer from a dashboard that does not name them yet refuses both.
  const useMcp = permissions.useMcp === true;
  const useTerminal = permissions.useTerminal === true;
  const target: ConnectTarget = { origin: window.location.origin, workspace, agent };

  if (!useMcp && !useTerminal) {
    return (
      <p className="ws-connect-refused">
        Connecting to this agent (its MCP server, SSH or a forwarded port) needs the editor or owner
        role in this workspace.
      </p>
    );
  }

  const copy = { copied, setCopied };
  return (
    <div className="ws-connect">
      <p>
        The snippets below hold <code>{API_KEY_PLACEHOLDER}</code> where your API key goes. Create
        one on the <Link to={API_KEYS_PAGE}>API keys page</Link> and put it in its place; it acts as
        you, so keep it out of shared files.
      </p>
      {useMcp && <McpSection id={`${id}-mcp`} target={target} copy={copy} />}
      {useTerminal && (
        <ForwardSection id={`${id}-fwd`} target={target} agent={agent} pods={pods} copy={copy} />
      )}
    </div>
  );
}

interface CopyState {
  copied: CopyOutcome | null;
  setCopied: (outcome: CopyOutcome) => void;
}

function McpSection({ id, target, copy }: { id: string; target: ConnectTarget; copy: CopyState }) {
  const urls = mcpUrls(target);
  return (
    <section aria-labelledby={`${id}-title`} className="ws-connect-section">
      <h3 id={`${id}-title`}>MCP server</h3>
      <p>
        The agent&rsquo;s tools, through the dashboard, for any MCP client. Send your API key in the{' '}
        <code>X-API-Key</code> header (or as <code>Authorization: Bearer</code>).
      </p>
      <Snippet
        id={`${id}-http`}
        title="Streamable HTTP address"
        what="the Streamable HTTP address"
        text={urls.http}
        copy={copy}
      />
      <Snippet
        id={`${id}-sse`}
        title="SSE address (older clients)"
        what="the SSE address"
        text={urls.sse}
        copy={copy}
      />
      <Snippet
        id={`${id}-claude`}
        title="Claude Code"
        what="the Claude Code command"
        text={claudeCodeCommand(target)}
        copy={copy}
      >
        Run it in a terminal; <code>claude mcp list</code> then shows the server.
      </Snippet>
      <Snippet
        id={`${id}-vscode`}
        title="VS Code"
        what="the VS Code configuration"
        text={vscodeConfig(target)}
        copy={copy}
      >
        In <code>.vscode/mcp.json</code> of your project (or merged into it). VS Code asks for the
        API key when it first starts the server and keeps it in its secret storage, not in the file.
      </Snippet>
      <Snippet
        id={`${id}-cursor`}
        title="Cursor"
        what="the Cursor configuration"
        text={cursorConfig(target)}
        copy={copy}
      >
        In <code>~/.cursor/mcp.json</code> (merged into its <code>mcpServers</code> if it has some).
      </Snippet>
      <Snippet
        id={`${id}-inspector`}
        title="MCP Inspector"
        what="the MCP Inspector command"
        text={inspectorCommand(target)}
        copy={copy}
      >
        Lists the agent&rsquo;s tools from the command line: a quick check that the address and key
        work.
      </Snippet>
    </section>
  );
}

function ForwardSection({
  id,
  target,
  agent,
  pods,
  copy,
}: {
  id: string;
  target: ConnectTarget;
  agent: string;
  pods: string[];
  copy: CopyState;
}) {
  const replicas = pods
    .map((pod) => ({ pod, replica: replicaOf(agent, pod) }))
    .filter((r): r is { pod: string; replica: number } => r.replica !== null)
    .sort((a, b) => a.replica - b.replica);
  const [replicaChoice, setReplicaChoice] = useState<number | null>(null);
  const [portText, setPortText] = useState('3000');
  const replica =
    replicas.find((r) => r.replica === replicaChoice)?.replica ?? replicas[0]?.replica ?? 0;
  const port = parsePort(portText);
  const host = connectionName(target, replica);

  return (
    <section aria-labelledby={`${id}-title`} className="ws-connect-section">
      <h3 id={`${id}-title`}>SSH, VS Code and ports</h3>
      <p>
        <code>paddock-forward</code> tunnels through the dashboard to the agent&rsquo;s workspace,
        with your API key.
      </p>
      {replicas.length > 1 && (
        <div className="field ws-connect-replica">
          <label htmlFor={`${id}-replica`}>Replica</label>
          <select
            id={`${id}-replica`}
            value={replica}
            onChange={(e) => setReplicaChoice(Number(e.target.value))}
          >
            {replicas.map((r) => (
              <option key={r.pod} value={r.replica}>
                {r.pod}
              </option>
            ))}
          </select>
        </div>
      )}
      <Snippet
        id={`${id}-setup`}
        title="1. Set up SSH (once)"
        what="the ssh-setup command"
        text={sshSetupCommand(target, replica)}
        copy={copy}
      >
        Makes a key, registers it with the workspace and adds <code>Host {host}</code> to{' '}
        <code>~/.ssh/config</code>.
      </Snippet>
      <Snippet
        id={`${id}-ssh`}
        title="2. Connect"
        what="the ssh command"
        text={sshCommand(target, replica)}
        copy={copy}
      >
        <code>scp</code>, <code>sftp</code> and <code>rsync</code> reach <code>{host}</code> the
        same way.
      </Snippet>
      <h4 className="ws-connect-step">VS Code over SSH</h4>
      <p>
        With the Remote - SSH extension, run <strong>Remote-SSH: Connect to Host…</strong> from the
        command palette and choose <code>{host}</code>.
      </p>
      <h4 className="ws-connect-step">Forward a port</h4>
      <div className="field ws-connect-port">
        <label htmlFor={`${id}-port`}>Port in the workspace</label>
        <input
          id={`${id}-port`}
          inputMode="numeric"
          value={portText}
          aria-invalid={port === null}
          aria-describedby={port === null ? `${id}-port-error` : undefined}
          onChange={(e) => setPortText(e.target.value)}
        />
        {port === null && (
          <span id={`${id}-port-error`} className="ws-error">
            A port is a number from 1 to 65535.
          </span>
        )}
      </div>
      {port !== null && (
        <Snippet
          id={`${id}-port-cmd`}
          title="Port forward"
          what="the port forward command"
          text={portForwardCommand(target, port, replica)}
          copy={copy}
        >
          Then open <code>http://127.0.0.1:{port}</code> on this machine; Ctrl-C stops the forward.
        </Snippet>
      )}
    </section>
  );
}

/**
 * A snippet to copy: its title, the text, a Copy button and a status saying it was copied. Where
 * the clipboard cannot be written (a page served over plain http), the text is selected instead
 * for the reader to copy with the keyboard.
 */
function Snippet({
  id,
  title,
  what,
  text,
  copy,
  children,
}: {
  id: string;
  title: string;
  what: string;
  text: string;
  copy: CopyState;
  children?: ReactNode;
}) {
  const codeRef = useRef<HTMLPreElement>(null);
  const outcome = copy.copied?.key === id ? copy.copied : null;
  const onCopy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      copy.setCopied({ key: id, ok: true });
    } catch {
      const code = codeRef.current;
      if (code !== null) window.getSelection()?.selectAllChildren(code);
      copy.setCopied({ key: id, ok: false });
    }
  };
  return (
    <div className="ws-snippet">
      <div className="ws-snippet-head">
        <h4 id={`${id}-title`}>{title}</h4>
        <button
          type="button"
          className="button small"
          aria-label={`Copy ${what}`}
          onClick={() => void onCopy()}
        >
          Copy
        </button>
        <span className="ws-copy-status" role="status">
          {outcome === null
            ? ''
            : outcome.ok
              ? 'Copied'
              : 'The clipboard refused: the text is selected, copy it with Ctrl+C (⌘C).'}
        </span>
      </div>
      <pre ref={codeRef} className="ws-snippet-code" aria-labelledby={`${id}-title`}>
        <code>{text}</code>
      </pre>
      {children !== undefined && <p className="ws-snippet-note">{children}</p>}
    </div>
  );
}
