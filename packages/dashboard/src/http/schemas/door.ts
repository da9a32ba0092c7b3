import { Type } from 'typebox';
import { WorkspaceParam } from './workspaces.js';
import { CLUSTER_ERRORS, operation, WORKSPACE_ERRORS, type Errors } from '../operation.js';
import { AgentName } from './agents.js';
import { ObjectName } from './common.js';

/**
 * The contracts of the door's routes (door/door-routes.ts): their parameters and what they
 * answer. They pass bytes on to a pod, so their answers are documented, never serialized.
 */

/** The sandbox route's parameters; its `*`, the path below the pod, is any text. */
export const SandboxParams = Type.Object({
  name: WorkspaceParam,
  agentName: ObjectName('The agent (AgentRuntime) name.'),
  podName: ObjectName('One of the agent’s pods, `<agent>-<ordinal>`.'),
});

/** The document's name for the wildcard of the sandbox route (a `*` is no OpenAPI parameter). */
export const SANDBOX_PATH = {
  type: 'string',
  description:
    'The path of the sandbox’s human API, e.g. `api/tree` (see the sandbox’s own OpenAPI ' +
    'description, `api/openapi.yaml` through this route).',
};

export const McpMessageQuery = Type.Object({
  sessionId: Type.String({
    minLength: 1,
    description: 'The session, as the `endpoint` event named it.',
  }),
});

const DOOR_DESCRIPTION =
  'Passes the request to the pod’s sandbox (its human API, as its own OpenAPI description ' +
  'says) and streams the answer back: plain answers, server-sent events (`api/events`, with ' +
  '`Last-Event-ID`) and WebSockets (`api/exec`, `api/port-forward`) alike. The credential and ' +
  'any identity header the client sent are removed; the sandbox is told the user in ' +
  '`X-Forwarded-Sub`, `-User` and `-Groups` with a proof signed by the dashboard ' +
  '(`X-Paddock-Proof`). Viewers read (`api/tree`, `api/file`, `api/events`, `api/download`, ' +
  '`api/openapi.yaml`); editors and owners also open terminals and tunnels and manage SSH keys ' +
  '(`api/exec`, `api/port-forward`, `api/ssh-port`, `api/ssh-authorized-keys`). What the pod ' +
  'serves may not set cookies or run scripts on the dashboard’s origin.';

const BAD_GATEWAY = "An agent's pod did not answer the request the dashboard passed on.";

const DOOR_ERRORS: Errors = {
  forbidden: 'The user’s roles do not allow this route of the sandbox (see above).',
  not_found:
    'The agent has no such pod, or the dashboard does not pass this path on (the sandbox’s ' +
    'HTML docs page among them).',
  method_not_allowed: 'The path does not take this method.',
  unavailable: 'The pod is not Ready, or the signing key cannot be read.',
  bad_gateway: BAD_GATEWAY,
  invalid_request: 'agent or pod is not a Kubernetes object name.',
};

/** One method of the door into a pod's sandbox: the same route for every method it takes. */
export function sandboxOperation(operationId: string, summary: string) {
  return operation(
    {
      operationId,
      summary,
      description: DOOR_DESCRIPTION,
      tag: 'door',
      errors: [DOOR_ERRORS, WORKSPACE_ERRORS, CLUSTER_ERRORS],
    },
    {
      params: SandboxParams,
      response: {
        200: {
          description: 'The sandbox’s answer, whatever its status, headers and body.',
          content: { '*/*': { schema: {} } },
        },
      },
    },
  );
}

const MCP_DESCRIPTION =
  'The agent’s MCP server, for an agent or an IDE anywhere: editors and owners, with an API ' +
  'key or a session. A new session goes to a Ready replica; the session id the client gets, ' +
  '`<ordinal>.<id>`, brings every later request of the session to the same replica.';

const MCP_ERRORS: Errors = {
  forbidden: 'The user’s roles do not allow the agent’s MCP server (editor or higher).',
  not_found: 'No such session (its replica is gone): start a new one.',
  unavailable: 'The agent has no Ready replica.',
  bad_gateway: BAD_GATEWAY,
  invalid_request: 'agent is not a Kubernetes object name, or sessionId is missing.',
};

const MCP_ANSWER = {
  200: {
    description: 'The MCP server’s answer: JSON or an event stream.',
    content: { 'application/json': { schema: {} }, 'text/event-stream': { schema: {} } },
  },
};

/** One method of the agent's MCP server through the dashboard. */
export function mcpOperation(operationId: string, summary: string, description = MCP_DESCRIPTION) {
  return operation(
    {
      operationId,
      summary,
      description,
      tag: 'door',
      errors: [MCP_ERRORS, WORKSPACE_ERRORS, CLUSTER_ERRORS],
    },
    { params: AgentName, response: MCP_ANSWER },
  );
}

/** The SSE transport's stream. */
export const sseOperation = () =>
  mcpOperation(
    'openAgentMcpSse',
    'The agent’s MCP server (SSE transport): open a session',
    MCP_DESCRIPTION +
      '\n\nThe first event, `endpoint`, names the path to POST messages to, relative to ' +
      'this one: `message?sessionId=<ordinal>.<id>`.',
  );

/** A message of the SSE transport, which names its session. */
export function messageOperation() {
  return operation(
    {
      operationId: 'postAgentMcpSseMessage',
      summary: 'The agent’s MCP server (SSE transport): a JSON-RPC message',
      description: MCP_DESCRIPTION + '\n\nThe answer comes on the session’s SSE stream.',
      tag: 'door',
      errors: [MCP_ERRORS, WORKSPACE_ERRORS, CLUSTER_ERRORS],
    },
    { params: AgentName, querystring: McpMessageQuery, response: MCP_ANSWER },
  );
}
