import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { useEffect, useRef, useState } from 'react';
import { api } from '../../api';
import { errorSentence, isCode } from './errors';
import {
  doorPath,
  endSentence,
  parseExitMessage,
  socketUrl,
  type ExitMessage,
  type PodRef,
} from './sandbox-door';
import { openTerminal } from './xterm-styles';
import './agent-workspace.css';

type Session =
  | { state: 'connecting' }
  | { state: 'open' }
  | { state: 'ended'; message: string; problem: boolean };

/** The terminal's colours: the log's dark background, a palette readable on it. */
const THEME = {
  background: '#0f1311',
  foreground: '#dfe7e2',
  cursor: '#7cc6a0',
  selectionBackground: '#3a5a49',
  black: '#1c2420',
  red: '#ff7b72',
  green: '#7cc6a0',
  yellow: '#f0c670',
  blue: '#8ab4f8',
  magenta: '#d2a8ff',
  cyan: '#76d9e6',
  white: '#dfe7e2',
  brightBlack: '#6e7d75',
  brightRed: '#ffa198',
  brightGreen: '#a6e3c0',
  brightYellow: '#f7d88f',
  brightBlue: '#b3cdfb',
  brightMagenta: '#e2c5ff',
  brightCyan: '#a5ecf4',
  brightWhite: '#ffffff',
};

/**
 * The Terminal tab: a shell in the workspace (the sandbox's exec WebSocket through the door) in
 * xterm.js, sized to its box and resized with it, until the shell exits or the connection ends;
 * then what happened, and Reconnect. Ctrl+Shift+C copies the selection and Ctrl+Shift+V pastes, as
 * in desktop terminals (Cmd+C and Cmd+V, and the browser's menu, work as well).
 */
export function TerminalPanel({
  pod,
}: {
  /** The same object as long as the pod is the same: a new one opens a new shell. */
  pod: PodRef;
}) {
  const boxRef = useRef<HTMLDivElement>(null);
  const [session, setSession] = useState<Session>({ state: 'connecting' });
  const [round, setRound] = useState(0);

  useEffect(() => {
    const box = boxRef.current;
    if (box === null) return;
    const terminal = new Terminal({
      theme: THEME,
      fontFamily: "ui-monospace, 'SFMono-Regular', 'DejaVu Sans Mono', Menlo, Consolas, monospace",
      fontSize: 14,
      cursorBlink: true,
      scrollback: 5000,
    });
    const fit = new FitAddon();
    terminal.loadAddon(fit);
    openTerminal(terminal, box);
    // A hidden tab has no size: fitting then would make a one-column terminal.
    const fitIfShown = () => {
      if (box.clientWidth > 0 && box.clientHeight > 0) fit.fit();
    };
    fitIfShown();

    const path = doorPath(pod, 'api/exec', { cols: terminal.cols, rows: terminal.rows });
    const socket = new WebSocket(socketUrl(window.location, path));
    socket.binaryType = 'arraybuffer';
    const encoder = new TextEncoder();
    let opened = false;
    let exit: ExitMessage | undefined;
    let disposed = false;

    const send = (data: string | Uint8Array) => {
      if (socket.readyState === WebSocket.OPEN) socket.send(data);
    };
    terminal.onData((data) => send(encoder.encode(data)));
    // Keys xterm reports as raw bytes (some mouse reports): one byte per character.
    terminal.onBinary((data) => send(Uint8Array.from(data, (c) => c.charCodeAt(0))));
    terminal.onResize(({ cols, rows }) => send(JSON.stringify({ type: 'resize', cols, rows })));
    terminal.attachCustomKeyEventHandler((event) => {
      // Tab belongs to the shell (completion), so F6 is the way out of the terminal, back to its
      // tab, as F6 moves between panes in browsers and IDEs.
      if (event.type === 'keydown' && event.key === 'F6') {
        event.preventDefault();
        terminal.blur();
        document.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]')?.focus();
        return false;
      }
      if (event.type !== 'keydown' || !event.ctrlKey || !event.shiftKey) return true;
      const key = event.key.toLowerCase();
      if (key === 'c') {
        const selection = terminal.getSelection();
        if (selection !== '') void navigator.clipboard?.writeText(selection).catch(() => undefined);
        event.preventDefault();
        return false;
      }
      // The browser pastes (its paste event reaches xterm's input): xterm must not send Ctrl+V.
      if (key === 'v') return false;
      return true;
    });

    socket.onopen = () => {
      opened = true;
      setSession({ state: 'open' });
      // Not while someone moves along the tabs with the arrows: the shell would take their keys.
      if (document.activeElement?.getAttribute('role') !== 'tab') terminal.focus();
    };
    socket.onmessage = (event: MessageEvent<ArrayBuffer | string>) => {
      if (typeof event.data === 'string') exit = parseExitMessage(event.data) ?? exit;
      else terminal.write(new Uint8Array(event.data));
    };
    socket.onclose = (event) => {
      if (disposed) return;
      const message = endSentence(exit, { code: event.code, reason: event.reason }, opened);
      const problem = exit === undefined && event.code !== 1000;
      terminal.write(`\r\n\x1b[2m[${message}]\x1b[0m\r\n`);
      if (opened) {
        setSession({ state: 'ended', message, problem });
        return;
      }
      // Refused before the upgrade: the browser does not say why, the door does to a plain GET
      // (426 when it would have let the upgrade through).
      api(path)
        .then(() => setSession({ state: 'ended', message, problem: true }))
        .catch((error: unknown) =>
          setSession({
            state: 'ended',
            message: isCode(error, 'upgrade_required')
              ? message
              : `The terminal could not be opened. ${errorSentence(error)}`,
            problem: true,
          }),
        );
    };

    const observer = new ResizeObserver(fitIfShown);
    observer.observe(box);
    return () => {
      disposed = true;
      observer.disconnect();
      socket.close(1000, 'terminal closed');
      terminal.dispose();
    };
  }, [pod, round]);

  return (
    <div className="ws-terminal">
      <div className="ws-section-head">
        <h3 id="terminal-title">Terminal</h3>
        {session.state === 'ended' && (
          <button
            type="button"
            className="button primary small"
            onClick={() => {
              setSession({ state: 'connecting' });
              setRound((r) => r + 1);
            }}
          >
            Reconnect
          </button>
        )}
      </div>
      <p
        className={session.state === 'ended' && session.problem ? 'ws-error' : 'muted ws-small'}
        role="status"
      >
        {session.state === 'connecting'
          ? 'Connecting to a shell in the workspace…'
          : session.state === 'open'
            ? 'A login shell in the workspace root: click it (or Tab to it) to type; F6 leaves it. Ctrl+Shift+C copies the selection, Ctrl+Shift+V pastes.'
            : session.message}
      </p>
      <div
        key={round}
        ref={boxRef}
        className="ws-terminal-box"
        role="group"
        aria-labelledby="terminal-title"
      />
    </div>
  );
}
