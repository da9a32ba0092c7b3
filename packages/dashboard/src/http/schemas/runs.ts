import { Type } from 'typebox';
import { CLUSTER_ERRORS, operation, WORKSPACE_ERRORS, type Errors } from '../operation.js';
import { named, Nullable } from './common.js';
import { SandboxParams } from './door.js';

/**
 * The contracts of the door's runs routes (door/runs-routes.ts): the agent loop's runs API of one
 * pod, passed on as bytes. Its shapes are documented here for clients of the dashboard; the pod
 * validates the requests and makes the answers.
 */

/** The key under which a route documents a body the door passes on unread (openapi-document.ts). */
export const PASSED_BODY_KEY = 'x-paddock-passed-body';

/** A run's id: a UUID, as the agent makes them. */
export const RUN_ID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';

export const PodParams = SandboxParams;

export const RunParams = Type.Object({
  ...SandboxParams.properties,
  runId: Type.String({ pattern: RUN_ID_PATTERN, description: 'The run, as started.' }),
});

export const RunEventsQuery = Type.Object({
  after: Type.Optional(
    Type.Integer({
      minimum: 0,
      description: 'Events after this number (as `Last-Event-ID`, which wins when both are sent)',
    }),
  ),
});

const Usage = Type.Object(
  {
    input: Type.Integer({ minimum: 0, description: 'Input tokens' }),
    output: Type.Integer({ minimum: 0, description: 'Output tokens' }),
    usd: Type.Number({ minimum: 0, description: 'Their cost in USD' }),
  },
  { description: 'Tokens and cost so far' },
);

const OUTCOMES = ['completed', 'failed', 'cancelled', 'limit', 'blocked', 'interrupted'] as const;

const Outcome = Type.Object(
  {
    status: Type.Enum([...OUTCOMES], {
      description: '`interrupted`: the pod restarted during the run; nothing resumes it',
    }),
    reason: Type.Optional(Type.String({ description: 'Why it ended so' })),
    code: Type.Optional(
      Type.String({ description: 'A failed model call’s code, e.g. `model_unauthorized`' }),
    ),
  },
  named('RunOutcome', 'How a run ended'),
);

export const Run = Type.Object(
  {
    id: Type.String(),
    task: Type.String({ description: 'The task as the model got it' }),
    prompt: Type.Optional(
      Type.Object(
        { name: Type.String(), variables: Type.Record(Type.String(), Type.String()) },
        { description: 'The prompt of the PromptPack it was made from, with its variables' },
      ),
    ),
    startedBy: Type.Optional(Type.String({ description: 'The user who started it' })),
    createdAt: Type.String({ format: 'date-time' }),
    lastSeq: Type.Integer({ minimum: 0, description: 'The number of its last transcript event' }),
    usage: Usage,
    outcome: Type.Optional(Outcome),
  },
  named('Run', 'A run of the agent loop: a task, its transcript and what it spent'),
);

export const RunList = Type.Object(
  {
    runs: Type.Array(Run, { description: 'The runs the pod keeps, newest first' }),
    running: Nullable(Type.String({ description: 'The run in progress' })),
    queued: Type.Array(Type.String(), { description: 'Runs waiting, in order' }),
  },
  named('RunList'),
);

export const StartedRun = Type.Object(
  {
    run: Run,
    position: Type.Integer({ minimum: 0, description: 'Runs ahead of it (0: it started)' }),
  },
  named('StartedRun'),
);

export const OneRun = Type.Object({ run: Run }, named('OneRun'));

export const StartRun = Type.Object(
  {
    task: Type.Optional(Type.String({ description: 'Free text' })),
    prompt: Type.Optional(
      Type.Object({
        name: Type.String({ description: 'A prompt of the agent’s PromptPack' }),
        variables: Type.Optional(
          Type.Record(Type.String(), Type.String(), {
            description: 'A value for each `{{variable}}` of the prompt',
          }),
        ),
      }),
    ),
  },
  named('StartRun', 'A task: free text, or a prompt of the PromptPack with its variables'),
);

/** One event of a run's transcript: the `data` of each server-sent event. */
export const RunEvent = Type.Union(
  [
    Type.Object({ type: Type.Literal('task'), seq: Type.Integer(), text: Type.String() }),
    Type.Object({ type: Type.Literal('text'), seq: Type.Integer(), delta: Type.String() }),
    Type.Object({
      type: Type.Literal('tool_call'),
      seq: Type.Integer(),
      id: Type.String(),
      name: Type.String(),
      arguments: Type.Unknown({ description: 'As scrubbed for the transcript' }),
    }),
    Type.Object({
      type: Type.Literal('tool_result'),
      seq: Type.Integer(),
      id: Type.String(),
      text: Type.String({ description: 'As the model got it' }),
      isError: Type.Boolean(),
      truncated: Type.Boolean(),
    }),
    Type.Object({
      type: Type.Literal('usage'),
      seq: Type.Integer(),
      input: Type.Integer(),
      output: Type.Integer(),
      usd: Type.Number(),
    }),
    Type.Object({
      type: Type.Literal('outcome'),
      seq: Type.Integer(),
      status: Type.Enum([...OUTCOMES]),
      reason: Type.Optional(Type.String()),
      code: Type.Optional(Type.String()),
    }),
  ],
  named('RunEvent', 'One step of a run, numbered from 1 (`seq`, the event’s `id`)'),
);

const RUNS_DESCRIPTION =
  'The agent loop’s runs API of one pod (its second container, in agents whose AgentRuntime ' +
  'names a `spec.provider`), passed on as the pod answers. The credential and any identity ' +
  'header the client sent are removed; the agent is told the user in `X-Forwarded-Sub`, `-User` ' +
  'and `-Groups` with a proof signed by the dashboard (`X-Paddock-Proof`), and records that user ' +
  'as who started a run. Viewers list runs and follow them; editors and owners also start and ' +
  'cancel them.';

const BAD_GATEWAY = "An agent's pod did not answer the request the dashboard passed on.";

const RUNS_ERRORS: Errors = {
  forbidden:
    'The user’s roles do not allow this: starting and cancelling runs needs an editor role or ' +
    'higher in the workspace, reading them a viewer role.',
  not_found: 'No such agent, the agent has no such pod, or the pod has no such run.',
  conflict:
    'The agent names no model provider (`spec.provider`), so it runs no tasks: its pods serve ' +
    'the sandbox alone.',
  unavailable:
    'The pod is not Ready, has no runs API yet, or the signing key cannot be read; or the ' +
    'agent is not ready to take a run.',
  bad_gateway: BAD_GATEWAY,
  invalid_request:
    'agent or pod is not a Kubernetes object name, the run id is not a UUID, or the pod found ' +
    'the request invalid (an unknown prompt, a missing variable, an over-long task: the ' +
    'message says which).',
};

/** The errors only the pod answers, as it answers them. */
const START_ERRORS: Errors = {
  forbidden: 'The workspace’s budget blocks new runs (the pod answers `budget_exceeded`).',
  rate_limited: 'The pod’s queue of runs is full (the pod answers `queue_full`).',
};

const json = (description: string, schema: unknown) => ({
  description,
  content: { 'application/json': { schema } },
});

function runsOperation<S extends object>(
  operationId: string,
  summary: string,
  extra: Errors[],
  shapes: S,
  description = RUNS_DESCRIPTION,
) {
  return operation(
    {
      operationId,
      summary,
      description,
      tag: 'door',
      errors: [RUNS_ERRORS, ...extra, WORKSPACE_ERRORS, CLUSTER_ERRORS],
    },
    shapes,
  );
}

export const listRunsOperation = () =>
  runsOperation('listAgentRuns', 'A pod’s runs: the kept ones, the running one, the queue', [], {
    params: PodParams,
    response: { 200: json('The runs.', RunList) },
  });

export const startRunOperation = () =>
  runsOperation(
    'startAgentRun',
    'Start a run on a pod (queued behind the running one)',
    [START_ERRORS],
    {
      params: PodParams,
      [PASSED_BODY_KEY]: StartRun,
      response: { 202: json('Started, or waiting its turn.', StartedRun) },
    },
  );

export const getRunOperation = () =>
  runsOperation('getAgentRun', 'One run of a pod', [], {
    params: RunParams,
    response: { 200: json('The run.', OneRun) },
  });

export const cancelRunOperation = () =>
  runsOperation(
    'cancelAgentRun',
    'Cancel a run: its model stream and its tool in flight stop',
    [],
    {
      params: RunParams,
      response: { 200: json('The run, ended as cancelled (or as it had ended already).', OneRun) },
    },
  );

export const runEventsOperation = () =>
  runsOperation(
    'streamAgentRunEvents',
    'A run’s transcript as server-sent events, live and resumable',
    [],
    {
      params: RunParams,
      querystring: RunEventsQuery,
      response: {
        200: {
          description:
            'Server-sent events: each event’s `id` is its number, its name its `type`, its ' +
            '`data` the event as JSON. The past events come first, then the live ones; the ' +
            'stream ends after the `outcome`. Send `Last-Event-ID` (or `?after=`) to resume ' +
            'after an event.',
          content: { 'text/event-stream': { schema: RunEvent } },
        },
      },
    },
    RUNS_DESCRIPTION,
  );
