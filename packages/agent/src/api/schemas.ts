// The runs API's contract: each route's params, query, body and answers, declared once.
import { Type } from 'typebox';
import { MAX_TASK_CHARS, MAX_VARIABLE_CHARS, MAX_VARIABLES } from '../runs/task.js';

export const ErrorBody = Type.Object({ error: Type.String(), message: Type.String() });

const Usage = Type.Object({ input: Type.Integer(), output: Type.Integer(), usd: Type.Number() });

const Outcome = Type.Object({
  status: Type.Enum(['completed', 'failed', 'cancelled', 'limit', 'blocked', 'interrupted']),
  reason: Type.Optional(Type.String()),
  code: Type.Optional(Type.String()),
});

const PromptChoice = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 253 }),
    variables: Type.Optional(
      Type.Record(Type.String(), Type.String({ maxLength: MAX_VARIABLE_CHARS }), {
        maxProperties: MAX_VARIABLES,
      }),
    ),
  },
  { additionalProperties: false },
);

export const Run = Type.Object({
  id: Type.String(),
  task: Type.String(),
  prompt: Type.Optional(
    Type.Object({ name: Type.String(), variables: Type.Record(Type.String(), Type.String()) }),
  ),
  startedBy: Type.Optional(Type.String()),
  createdAt: Type.String({ format: 'date-time' }),
  lastSeq: Type.Integer({ minimum: 0, description: 'The number of its last transcript event' }),
  usage: Usage,
  outcome: Type.Optional(Outcome),
});

export const StartRun = Type.Object(
  {
    task: Type.Optional(Type.String({ maxLength: MAX_TASK_CHARS, description: 'Free text' })),
    prompt: Type.Optional(PromptChoice),
  },
  { additionalProperties: false },
);

export const RunId = Type.Object({
  id: Type.String({ pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' }),
});

export const EventsQuery = Type.Object(
  {
    after: Type.Optional(
      Type.Integer({
        minimum: 0,
        description: 'Events after this number (as Last-Event-ID, which wins when both are sent)',
      }),
    ),
  },
  { additionalProperties: false },
);

export const Started = Type.Object({
  run: Run,
  position: Type.Integer({ minimum: 0, description: 'Runs ahead of it (0: it started)' }),
});

export const RunList = Type.Object({
  runs: Type.Array(Run),
  running: Type.Union([Type.String(), Type.Null()]),
  queued: Type.Array(Type.String()),
});

export const OneRun = Type.Object({ run: Run });
