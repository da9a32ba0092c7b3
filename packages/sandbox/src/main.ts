import { readFile } from 'node:fs/promises';
import {
  ConfigError,
  createLogger,
  formatAddress,
  httpUrl,
  listen,
  loadConfig,
  loggingFromEnv,
  packageInfo,
  Shutdown,
  UsageError,
} from '@paddock/common';
import { checkWorkspace, mcpExposure, parseFlags, USAGE } from './cli/flags.js';
import { missingProgram, missingProgramLine } from './cli/required-programs.js';
import { apiProofFor } from './api/identity-proof.js';
import { apiOnFirstUse } from './api/on-first-use.js';
import { stderrAudit } from './api/audit.js';
import { sandboxEnv } from './config.js';
import { SandboxMetrics } from './metrics.js';
import { ToolSet } from './mcp/dispatch.js';
import { createMcpListener } from './mcp/listener.js';
import { ProcessGroups } from './mcp/process-group.js';
import { TOOLS } from './mcp/tools/index.js';
import { beginStop } from './process/stop-deadline.js';
import {
  childEnvironment,
  parsePatternFile,
  Scrubber,
  secretsFromEnv,
} from '@paddock/common/scrub';
import { Workspace } from './workspace/containment.js';

/** `paddock-sandbox`: parse the command line and configuration, then serve until a signal. */
export async function main(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<void> {
  const outcome = parseFlags(argv);
  if ('help' in outcome) return void process.stdout.write(`${USAGE}\n`);
  const { version } = packageInfo(import.meta.url);
  if ('version' in outcome) return void process.stdout.write(`${version}\n`);
  const { flags } = outcome;
  await checkWorkspace(flags.workspace);
  // Grep and Glob run ripgrep: without it the sandbox says so in one line rather than start.
  const missing = missingProgram(env);
  if (missing !== undefined) {
    process.stderr.write(`${missingProgramLine(missing)}\n`);
    process.exitCode = 1;
    return;
  }
  const config = loadConfig(sandboxEnv, env);
  const exposure = mcpExposure(flags, config.SVC_MCP_TOKEN !== undefined);
  if (exposure.outcome === 'refuse') throw new UsageError(exposure.message);
  const proof = flags.apiAddr ? apiProofFor(flags.devMode, config) : undefined;
  const extraPatterns = await readPatterns(config.SVC_SCRUB_PATTERNS_FILE);

  const logger = createLogger({ name: 'paddock-sandbox', ...loggingFromEnv(env) });
  if (exposure.outcome === 'warn') logger.warn(exposure.message);
  const workspace = await Workspace.open(flags.workspace);
  const secrets = secretsFromEnv(env);
  if (config.SVC_MCP_TOKEN !== undefined) secrets.push(config.SVC_MCP_TOKEN);
  const scrubber = new Scrubber({ secrets, extraPatterns });
  const childEnv = childEnvironment(env);

  // The commands the MCP tools start: owned here, ended by the shutdown and at exit.
  const groups = new ProcessGroups();
  // This sandbox's metrics, served at /metrics on the MCP listener (-addr).
  const metrics = new SandboxMetrics();
  const mcp = createMcpListener(
    {
      version,
      tools: new ToolSet(TOOLS),
      workspace,
      childEnv,
      groups,
      metrics,
      scrub: (text) => scrubber.scrub(text),
      scrubView: (text) => scrubber.view(text),
    },
    logger,
    {
      token: config.SVC_MCP_TOKEN,
      allowedOrigins: config.SVC_MCP_ALLOWED_ORIGINS,
      keepAliveMs: config.SVC_MCP_KEEPALIVE_SECONDS * 1000,
    },
  );
  // /readyz answers 200 only once every listener of this process is up, not just the first one.
  let started = false;
  mcp.health.addCheck('listeners', () => started);
  // One grace budget for the whole process: every stop step, and every kill, ends by its deadline.
  const shutdown = new Shutdown({
    logger,
    graceMs: config.SVC_SHUTDOWN_GRACE_MS,
    onBegin: (budget) => beginStop(budget.forceAt),
  })
    .add('process groups', () => groups.terminateAll())
    .add('mcp listener', mcp.close)
    .listen();
  // Whatever way the process ends, no command it started outlives it.
  process.on('exit', () => groups.killAllNow());
  const bound = await listen(mcp.server, flags.addr);
  logger.info(
    {
      addr: formatAddress(bound),
      sse: httpUrl(bound, '/sse'),
      streamableHttp: httpUrl(bound, '/mcp'),
      workspace: workspace.root,
      tools: TOOLS.length,
    },
    'MCP server listening',
  );
  if (flags.apiAddr) {
    const features = {
      api: flags.enableApi,
      exec: flags.enableExec,
      portForward: flags.enablePortForward,
      ssh: flags.enableSsh,
    };
    if (flags.devMode) {
      logger.warn(
        'DEV MODE: requests without identity headers act as Sub=dev, User=dev. Never use -dev-mode in production.',
      );
    }
    // The human API's stack (its HTTP framework's plugins, route schemas and validators, the
    // feature modules, about 20 MiB) loads only with -api-addr, and then with the first request
    // or upgrade: a sandbox nobody has opened never holds it.
    const api = apiOnFirstUse(async ({ serverFactory, upgrades }) => {
      const [{ createApiListener }, { apiModules }] = await Promise.all([
        import('./api/listener.js'),
        import('./api/modules.js'),
      ]);
      return createApiListener({
        workspace,
        features,
        devMode: flags.devMode,
        proof,
        selfPorts: [bound.port],
        logger,
        audit: stderrAudit,
        childEnv,
        metrics,
        modules: await apiModules(features),
        serverFactory,
        upgrades,
      });
    }, logger);
    shutdown.add('api listener', api.close);
    const apiBound = await listen(api.server, flags.apiAddr);
    logger.info(
      {
        apiAddr: formatAddress(apiBound),
        ...features,
        devMode: flags.devMode,
        proof: proof?.mode ?? 'none',
      },
      'human-facing API listening',
    );
  }
  started = true;
}

async function readPatterns(file: string | undefined) {
  if (file === undefined) return [];
  try {
    return parsePatternFile(await readFile(file, 'utf8'));
  } catch (err) {
    throw new ConfigError([`SVC_SCRUB_PATTERNS_FILE: ${(err as Error).message}`]);
  }
}
