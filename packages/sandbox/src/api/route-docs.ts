/** The long descriptions of the WebSocket routes, whose framing no schema can say. */

export const EXEC_DESCRIPTION = `An interactive terminal in the workspace over a WebSocket (\`GET\` with \`Upgrade: websocket\`):
the login shell (\`$SHELL -l\`, bash by default), or \`bash -lc <command>\` when \`command\` is given, under a
pseudo-terminal (\`TERM=xterm-256color\`), in the workspace root, with the sandbox's environment minus
its secrets. A request that is not an upgrade answers 426 before anything else; a bad query
(\`cols\`/\`rows\` outside 1..1000, an empty or over-long \`command\`, an unknown parameter) answers
400 before the upgrade.

Framing:

- **Binary frames** carry raw terminal bytes, both ways: keystrokes client→server, terminal output
  server→client.
- **Text frames** carry JSON control messages:
  - client→server \`{"type":"resize","cols":120,"rows":40}\` resizes the terminal (1..1000 each);
  - client→server \`{"type":"signal","signal":"SIGINT"}\` signals the terminal's foreground job, as
    its keyboard would (SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGKILL, SIGTSTP, SIGCONT, SIGUSR1, SIGUSR2);
  - server→client \`{"type":"exit","code":0,"signal":null}\` is sent **exactly once**, when the shell
    ends, and the server then closes the socket with code 1000. \`code\` is the exit status, or
    128 + N when signal N killed the shell (\`signal\` then names it, e.g. \`"SIGKILL"\`).
- A malformed or unknown control message closes the socket with 1008 and the reason; a shell that
  cannot start closes it with 1011; sandbox shutdown closes it with 1001.

Closing the socket from the client hangs the terminal up: the shell and whatever it left running
in its session end. The server pings every 30 s and drops a client that stops answering. One audit
line \`api exec sub=… duration=… exit=…\` is written to the sandbox's stderr when the shell ends.`;

export const PORT_FORWARD_DESCRIPTION = `A raw TCP tunnel to \`127.0.0.1:<port>\` inside the sandbox, over a WebSocket (\`GET\` with
\`Upgrade: websocket\`). There is no host parameter: the target is always the sandbox's loopback.
A request that is not an upgrade answers 426 before anything else; a \`port\` that is missing, given
twice or not an integer in 1..65535, or any other query parameter, answers 400 before the upgrade.

Framing:

- **Binary frames** carry raw TCP bytes, both ways, in order. Bytes sent while the connection to the
  target is still being made wait for it.
- **The text frame \`eof\`** is the one text frame, in both directions: its sender has finished
  sending (TCP's half-close). From the client, the target gets FIN after every byte before it, and
  what the target answers still arrives; bytes after it close the socket with 1002. From the server,
  it follows every byte the target sent before its FIN; the client may go on sending. Once both
  sides have sent \`eof\`, the server closes with 1000. Any other text frame closes with 1003.
- When the target refuses the connection, resets it or does not answer within 10 s, the server
  closes with code 1011 and a reason such as \`connection refused: 127.0.0.1:5432\`.
- Closing the socket from the client ends both directions: the target gets FIN after the bytes
  already received, and what it sends afterwards is dropped.
- Sandbox shutdown closes with 1001. The server pings every 30 s and drops a client that stops
  answering.

Both directions apply backpressure, so a slow side slows the other instead of filling memory.
This is how \`paddock-forward --ssh\` reaches the embedded SSH server (see \`/api/ssh-port\`). One
audit line \`api port-forward sub=… port=… in=… out=… dur=…\` is written when the tunnel closes.`;
