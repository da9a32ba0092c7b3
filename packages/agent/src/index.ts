// The public surface of @paddock/agent: the agent loop, its model providers and its tools.
export {
  ModelError,
  type ModelClient,
  type ModelErrorCode,
  type ModelEvent,
  type ModelMessage,
  type ModelRequest,
  type ModelTool,
  type ModelToolCall,
  type ModelToolResult,
  type StopReason,
} from './model.js';
export { openAIChatClient, type OpenAIChatOptions } from './providers/openai-chat.js';
export {
  anthropicMessagesClient,
  type AnthropicMessagesOptions,
} from './providers/anthropic-messages.js';
export type { AgentTool, ToolResult } from './tools.js';
export { connectSandboxTools, TOOL_CALL_TIMEOUT_MS, type SandboxTools } from './sandbox-tools.js';
export { DEFAULT_MAX_TOOL_RESULT_CHARS, truncateForModel, type Truncated } from './truncate.js';
export { PRICES, PRICES_READ_ON, type ModelPrice, type PriceTable } from './prices.js';
export { costOf, priceOf, type Cost, type TokenUsage } from './pricing.js';
export {
  runAgent,
  DEFAULT_MAX_OUTPUT_TOKENS,
  MAX_TOOL_CALLS_PER_TURN,
  type AgentLimits,
  type RunAgentOptions,
  type RunResult,
  type RunTotals,
} from './loop.js';
export type { Outcome, OutcomeStatus, TranscriptEntry, TranscriptEvent } from './transcript.js';
export {
  RunStore,
  MAX_RUNS_KEPT,
  MAX_TRANSCRIPT_BYTES,
  INTERRUPTED_REASON,
  type RunRequest,
  type RunSummary,
} from './runs/run-store.js';
export { RunQueue, MAX_QUEUED_RUNS, QueueFullError } from './runs/run-queue.js';
export {
  taskOf,
  variablesOf,
  MAX_TASK_CHARS,
  type TaskRequest,
  type NamedPrompt,
} from './runs/task.js';
export {
  Runner,
  AgentError,
  type AgentErrorCode,
  type RunSettings,
  type RunnerOptions,
  type StartRequest,
} from './runs/runner.js';
export { readSettings, settingsOf, priceOverrides } from './runs/cluster-settings.js';
export { createAgentApp, eventFrame, AGENT_BODY_LIMIT } from './api/app.js';
export { CostReporter, type CostReporterOptions } from './cost/cost-reporter.js';
export { addSpend, reportOf, reportedUsd, spendFrom, type Spend } from './cost/spend.js';
