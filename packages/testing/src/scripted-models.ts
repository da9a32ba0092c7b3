// Scripted model servers: stand-ins for the OpenAI Chat Completions and Anthropic Messages APIs that
// play a script of turns and record what they were sent. No model can be reached from the test
// machines, so these speak each provider's wire format (JSON answers and server-sent events, as the
// real APIs stream them) closely enough for the official SDKs to work against them unmodified.
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

export interface ScriptedToolCall {
  id?: string;
  name: string;
  /** A JSON value, sent as the call's JSON arguments (OpenAI) or input (Anthropic). */
  arguments: unknown;
}

export type ScriptedTurn =
  | {
      text?: string;
      toolCalls?: ScriptedToolCall[];
      usage?: { input: number; output: number };
      /** Stream the first text chunk, then wait for release() (or the client going away). */
      hold?: boolean;
    }
  | { error: { status: number; message?: string; retryAfterSeconds?: number } };

export interface RecordedRequest {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body; the raw text when it was not JSON; undefined when it was refused unread. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- whatever the client sent
  body: any;
}

export interface ScriptedModelServer {
  /** The baseURL to give the SDK: `${origin}/v1` for OpenAI, `${origin}` for Anthropic. */
  baseURL: string;
  /** Every request received, in order (errors included), the first MAX_RECORDED_REQUESTS of them. */
  requests: RecordedRequest[];
  /** Resolves once n requests have arrived. */
  waitForRequests(n: number): Promise<void>;
  /** Lets the held turn finish its stream (or the next one to hold, when none holds yet). */
  release(): void;
  /**
   * Resolves when a client went away before its response ended (cancellation). The k-th call
   * waits for the k-th such disconnect, so one that happened before the call is not missed.
   */
  waitForDisconnect(): Promise<void>;
  /** Turns not yet played. */
  remaining(): number;
  close(): Promise<void>;
}

/** Bodies over this are refused with 413, as no real request to a model comes near it. */
const MAX_BODY_BYTES = 8 * 1024 * 1024;
/** Requests kept in `requests`; later ones are still counted and answered. */
const MAX_RECORDED_REQUESTS = 10_000;
/** Default usage, when a turn gives none: a rough token per this many characters. */
const CHARS_PER_TOKEN = 4;
/** Pieces a reply's text is streamed in. */
const TEXT_CHUNKS = 3;
/** Pieces each tool call's JSON arguments are streamed in. */
const ARGUMENT_CHUNKS = 3;

type Reply = Exclude<ScriptedTurn, { error: unknown }>;
/** A request body once `invalid` found nothing wrong with it. */
interface ModelRequest {
  model: string;
  messages: unknown[];
  system?: unknown;
  stream?: unknown;
  stream_options?: unknown;
}

interface ToolCall {
  id: string;
  name: string;
  /** The arguments as JSON text. */
  json: string;
}

/** What a dialect needs to answer one reply turn. */
interface Answer {
  model: string;
  text: string;
  toolCalls: ToolCall[];
  usage: { input: number; output: number };
  stream: boolean;
  body: ModelRequest;
}

/** A stream as frames written in order, and the frame after which a held turn waits. */
interface Frames {
  frames: string[];
  holdAfter: number;
}

/** One provider's wire format. */
interface Dialect {
  /** Prefix of the baseURL the SDK is given (the SDK appends the rest of the path). */
  basePath: string;
  path: string;
  requestIdHeader: string;
  idPrefix: string;
  toolIdPrefix: string;
  errorBody(status: number, message: string, requestId: string): unknown;
  /** Why the body cannot be a request to this API, or undefined when it can. */
  invalid(body: unknown): string | undefined;
  wantsStream(body: ModelRequest): boolean;
  response(answer: Answer, id: string): unknown;
  streamFrames(answer: Answer, id: string): Frames;
}

/** An OpenAI Chat Completions server on 127.0.0.1 (POST /v1/chat/completions) playing `turns`. */
export function startScriptedOpenAI(turns: ScriptedTurn[]): Promise<ScriptedModelServer> {
  return startScripted(openAI, turns);
}

/** An Anthropic Messages server on 127.0.0.1 (POST /v1/messages) playing `turns`. */
export function startScriptedAnthropic(turns: ScriptedTurn[]): Promise<ScriptedModelServer> {
  return startScripted(anthropic, turns);
}

// ---------------------------------------------------------------------------------------------
// OpenAI Chat Completions

const OPENAI_FINGERPRINT = 'fp_scripted';

const openAIErrorKinds: Record<number, { type: string; code: string | null }> = {
  400: { type: 'invalid_request_error', code: null },
  401: { type: 'invalid_request_error', code: 'invalid_api_key' },
  403: { type: 'invalid_request_error', code: 'unsupported_country_region_territory' },
  404: { type: 'invalid_request_error', code: 'model_not_found' },
  413: { type: 'invalid_request_error', code: 'request_too_large' },
  429: { type: 'requests', code: 'rate_limit_exceeded' },
};

function openAIUsage(usage: Answer['usage']) {
  return {
    prompt_tokens: usage.input,
    completion_tokens: usage.output,
    total_tokens: usage.input + usage.output,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

const openAI: Dialect = {
  basePath: '/v1',
  path: '/v1/chat/completions',
  requestIdHeader: 'x-request-id',
  idPrefix: 'chatcmpl-',
  toolIdPrefix: 'call_',
  errorBody(status, message) {
    const kind = openAIErrorKinds[status] ?? {
      type: status >= 500 ? 'server_error' : 'invalid_request_error',
      code: null,
    };
    return { error: { message, type: kind.type, param: null, code: kind.code } };
  },
  invalid(body) {
    if (!isObject(body)) return 'the body must be a JSON object';
    if (typeof body.model !== 'string') return "you must provide a model parameter ('model')";
    if (!Array.isArray(body.messages)) return "missing required parameter: 'messages'";
    return undefined;
  },
  wantsStream: (body) => body.stream === true,
  response(answer, id) {
    const message: Record<string, unknown> = {
      role: 'assistant',
      content: answer.text !== '' || answer.toolCalls.length === 0 ? answer.text : null,
      refusal: null,
      annotations: [],
    };
    if (answer.toolCalls.length > 0) {
      message.tool_calls = answer.toolCalls.map((c) => ({
        id: c.id,
        type: 'function',
        function: { name: c.name, arguments: c.json },
      }));
    }
    return {
      id,
      object: 'chat.completion',
      created: nowSeconds(),
      model: answer.model,
      choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason(answer) }],
      usage: openAIUsage(answer.usage),
      service_tier: 'default',
      system_fingerprint: OPENAI_FINGERPRINT,
    };
  },
  streamFrames(answer, id) {
    const includeUsage =
      isObject(answer.body.stream_options) && answer.body.stream_options.include_usage === true;
    const created = nowSeconds();
    // Every chunk carries `usage: null` when usage was asked for, as the real API does.
    const chunk = (choices: unknown[], usage: unknown = null) =>
      sse({
        id,
        object: 'chat.completion.chunk',
        created,
        model: answer.model,
        service_tier: 'default',
        system_fingerprint: OPENAI_FINGERPRINT,
        choices,
        ...(includeUsage ? { usage } : {}),
      });
    const delta = (d: unknown, finish: string | null = null) =>
      chunk([{ index: 0, delta: d, logprobs: null, finish_reason: finish }]);

    const frames = [
      delta({ role: 'assistant', content: answer.text === '' ? null : '', refusal: null }),
    ];
    const pieces = splitEven(answer.text, TEXT_CHUNKS);
    const holdAfter = pieces.length > 0 ? frames.length : 0;
    for (const piece of pieces) frames.push(delta({ content: piece }));
    answer.toolCalls.forEach((call, index) => {
      frames.push(
        delta({
          tool_calls: [
            { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } },
          ],
        }),
      );
      for (const piece of splitEven(call.json, ARGUMENT_CHUNKS)) {
        frames.push(delta({ tool_calls: [{ index, function: { arguments: piece } }] }));
      }
    });
    frames.push(delta({}, finishReason(answer)));
    if (includeUsage) frames.push(chunk([], openAIUsage(answer.usage)));
    frames.push('data: [DONE]\n\n');
    return { frames, holdAfter };
  },
};

function finishReason(answer: Answer): string {
  return answer.toolCalls.length > 0 ? 'tool_calls' : 'stop';
}

// ---------------------------------------------------------------------------------------------
// Anthropic Messages

const anthropicErrorTypes: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

function anthropicUsage(input: number, output: number) {
  return {
    input_tokens: input,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    output_tokens: output,
    service_tier: 'standard',
  };
}

const anthropic: Dialect = {
  basePath: '',
  path: '/v1/messages',
  requestIdHeader: 'request-id',
  idPrefix: 'msg_',
  toolIdPrefix: 'toolu_',
  errorBody(status, message, requestId) {
    const type =
      anthropicErrorTypes[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
    return { type: 'error', error: { type, message }, request_id: requestId };
  },
  invalid(body) {
    if (!isObject(body)) return 'the body must be a JSON object';
    if (typeof body.model !== 'string') return 'model: Field required';
    if (!Array.isArray(body.messages)) return 'messages: Field required';
    return undefined;
  },
  wantsStream: (body) => body.stream === true,
  response(answer, id) {
    return {
      id,
      type: 'message',
      role: 'assistant',
      model: answer.model,
      content: [
        ...(answer.text === '' ? [] : [{ type: 'text', text: answer.text }]),
        ...answer.toolCalls.map((c) => ({
          type: 'tool_use',
          id: c.id,
          name: c.name,
          input: JSON.parse(c.json) as unknown,
        })),
      ],
      stop_reason: stopReason(answer),
      stop_sequence: null,
      usage: anthropicUsage(answer.usage.input, answer.usage.output),
    };
  },
  streamFrames(answer, id) {
    const event = (type: string, data: Record<string, unknown>) =>
      `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
    const frames = [
      event('message_start', {
        message: {
          id,
          type: 'message',
          role: 'assistant',
          model: answer.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          // The real API reports the output so far here, and the total in message_delta.
          usage: anthropicUsage(answer.usage.input, 1),
        },
      }),
      event('ping', {}),
    ];
    let holdAfter = 0;
    let index = 0;
    if (answer.text !== '') {
      frames.push(
        event('content_block_start', { index, content_block: { type: 'text', text: '' } }),
      );
      holdAfter = frames.length;
      for (const text of splitEven(answer.text, TEXT_CHUNKS)) {
        frames.push(event('content_block_delta', { index, delta: { type: 'text_delta', text } }));
      }
      frames.push(event('content_block_stop', { index }));
      index++;
    }
    for (const call of answer.toolCalls) {
      frames.push(
        event('content_block_start', {
          index,
          content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
        }),
      );
      // The real API opens each tool input with an empty piece.
      for (const partial_json of ['', ...splitEven(call.json, ARGUMENT_CHUNKS)]) {
        frames.push(
          event('content_block_delta', {
            index,
            delta: { type: 'input_json_delta', partial_json },
          }),
        );
      }
      frames.push(event('content_block_stop', { index }));
      index++;
    }
    frames.push(
      event('message_delta', {
        delta: { stop_reason: stopReason(answer), stop_sequence: null },
        usage: { output_tokens: answer.usage.output },
      }),
      event('message_stop', {}),
    );
    return { frames, holdAfter };
  },
};

function stopReason(answer: Answer): string {
  return answer.toolCalls.length > 0 ? 'tool_use' : 'end_turn';
}

// ---------------------------------------------------------------------------------------------
// The server

async function startScripted(
  dialect: Dialect,
  script: ScriptedTurn[],
): Promise<ScriptedModelServer> {
  const turns = [...script];
  const requests: RecordedRequest[] = [];
  const received = new Tally();
  const disconnects = new Tally();
  let disconnectsAwaited = 0;
  // Held turns waiting for release(), oldest first; releases given before any turn held.
  const held: (() => void)[] = [];
  let releasesAhead = 0;

  const waitForRelease = (res: ServerResponse): Promise<void> => {
    if (releasesAhead > 0) {
      releasesAhead--;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        const at = held.indexOf(done);
        if (at >= 0) held.splice(at, 1);
        res.off('close', done);
        resolve();
      };
      held.push(done);
      res.on('close', done);
    });
  };

  const record = (req: IncomingMessage, body: unknown) => {
    if (requests.length < MAX_RECORDED_REQUESTS) {
      requests.push({ path: req.url ?? '', headers: { ...req.headers }, body });
    }
    received.add();
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const requestId = `req_${randomId()}`;
    res.setHeader(dialect.requestIdHeader, requestId);
    const fail = (status: number, message: string, retryAfterSeconds?: number) => {
      if (retryAfterSeconds !== undefined) res.setHeader('retry-after', String(retryAfterSeconds));
      sendJson(res, status, dialect.errorBody(status, message, requestId));
    };
    let gone = false;
    res.on('close', () => {
      if (res.writableEnded) return;
      gone = true;
      disconnects.add();
    });

    const raw = await readBody(req);
    if (raw === undefined) {
      record(req, undefined);
      res.setHeader('connection', 'close');
      return fail(413, `request body over ${MAX_BODY_BYTES} bytes`);
    }
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      record(req, raw);
      return fail(400, 'the body is not valid JSON');
    }
    record(req, body);
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'POST' || path !== dialect.path) {
      return fail(404, `Invalid URL (${req.method} ${req.url})`);
    }
    const invalid = dialect.invalid(body);
    if (invalid !== undefined) return fail(400, invalid);

    const turn = turns.shift();
    if (turn === undefined) {
      return fail(500, `the scripted model has no more turns (the script had ${script.length})`);
    }
    if ('error' in turn) {
      const { status, message, retryAfterSeconds } = turn.error;
      return fail(status, message ?? `scripted error ${status}`, retryAfterSeconds);
    }
    const answer = answerOf(dialect, turn, body as ModelRequest);
    const id = `${dialect.idPrefix}${randomId()}`;
    if (!answer.stream) {
      if (turn.hold) await waitForRelease(res);
      if (!gone) sendJson(res, 200, dialect.response(answer, id));
      return;
    }
    const { frames, holdAfter } = dialect.streamFrames(answer, id);
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
    });
    for (const [i, frame] of frames.entries()) {
      if (gone) return;
      res.write(frame);
      if (turn.hold && i === holdAfter) await waitForRelease(res);
    }
    if (!gone) res.end();
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, dialect.errorBody(500, String(err), ''));
      else res.destroy();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  const origin = `http://127.0.0.1:${port}`;

  return {
    baseURL: `${origin}${dialect.basePath}`,
    requests,
    waitForRequests: (n) => received.reach(n),
    release() {
      const next = held.shift();
      if (next) next();
      else releasesAhead++;
    },
    waitForDisconnect: () => disconnects.reach(++disconnectsAwaited),
    remaining: () => turns.length,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      // Held turns end with their connections; none may wait for a release that will not come.
      for (const done of [...held]) done();
      await closed;
    },
  };
}

function answerOf(dialect: Dialect, turn: Reply, body: ModelRequest): Answer {
  const text = turn.text ?? '';
  const toolCalls = (turn.toolCalls ?? []).map((c) => ({
    id: c.id ?? `${dialect.toolIdPrefix}${randomId()}`,
    name: c.name,
    json: JSON.stringify(c.arguments ?? {}),
  }));
  const usage = turn.usage ?? {
    input: estimateTokens(JSON.stringify([body.system ?? null, body.messages])),
    output: estimateTokens(text + toolCalls.map((c) => c.name + c.json).join('')),
  };
  return {
    model: body.model,
    text,
    toolCalls,
    usage,
    stream: dialect.wantsStream(body),
    body,
  };
}

/** The body as text, or undefined when it is over MAX_BODY_BYTES (the rest is read and dropped). */
async function readBody(req: IncomingMessage): Promise<string | undefined> {
  if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) {
    req.resume();
    return undefined;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      req.resume();
      return undefined;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** Counts something and lets callers wait until the count reaches a number. */
class Tally {
  private count = 0;
  private waiters: { n: number; resolve: () => void }[] = [];

  add(): void {
    this.count++;
    this.waiters = this.waiters.filter((w) => {
      if (this.count < w.n) return true;
      w.resolve();
      return false;
    });
  }

  reach(n: number): Promise<void> {
    if (this.count >= n) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ n, resolve }));
  }
}

/** Text in at most `parts` pieces of about equal length (none for empty text), whole characters. */
function splitEven(text: string, parts: number): string[] {
  const chars = Array.from(text);
  const size = Math.ceil(chars.length / parts);
  const pieces: string[] = [];
  for (let i = 0; i < chars.length; i += size) pieces.push(chars.slice(i, i + size).join(''));
  return pieces;
}

function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / CHARS_PER_TOKEN));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function randomId(): string {
  return randomBytes(12).toString('hex');
}

/** One server-sent event carrying JSON data only, as OpenAI streams them. */
function sse(data: unknown): string {
  return `data: ${JSON.stringify(data)}\n\n`;
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
