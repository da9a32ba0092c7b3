import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  cancelRunOperation,
  getRunOperation,
  listRunsOperation,
  runEventsOperation,
  startRunOperation,
} from '../http/schemas/runs.js';
import type { WorkspaceAction } from '../workspaces/views.js';

/**
 * The door's runs routes: the agent loop's runs API (port `runs`, 7072) of one pod, below
 * `.../pods/{pod}/runs`, each route of the agent's API a route of the dashboard's, so that each
 * has its role and its documented contract. Viewers read runs and follow their transcripts;
 * editors and owners also start and cancel them.
 */

const POD = '/api/workspaces/:name/agents/:agentName/pods/:podName';
export const RUNS_ROUTES = {
  runs: `${POD}/runs`,
  run: `${POD}/runs/:runId`,
  events: `${POD}/runs/:runId/events`,
  cancel: `${POD}/runs/:runId/cancel`,
} as const;

export type RunsAction = Extract<WorkspaceAction, 'viewRuns' | 'startRuns'>;

/** A request to a runs route: a pod of an agent of a workspace, and maybe one of its runs. */
export type RunsRequest = FastifyRequest & {
  params: { name: string; agentName: string; podName: string; runId?: string };
};

/** The path of the agent's runs API a request goes to, its query as sent. */
export function runsUpstreamPath(
  runId: string | undefined,
  tail: '' | 'events' | 'cancel',
  url: string,
) {
  const at = url.indexOf('?');
  const query = at < 0 ? '' : url.slice(at);
  const run = runId === undefined ? '' : `/${encodeURIComponent(runId)}`;
  return `/api/runs${run}${tail === '' ? '' : `/${tail}`}${query}`;
}

/** What the door's runs routes need of the door: the role check, then the pass to the pod. */
export type RunsPass = (
  req: RunsRequest,
  reply: FastifyReply,
  action: RunsAction,
  upstreamPath: string,
) => Promise<void>;

/** The five routes of the runs API, registered in the door's scope (bodies unread). */
export function registerRunsRoutes(scope: FastifyInstance, pass: RunsPass): void {
  const typed = scope.withTypeProvider<TypeBoxTypeProvider>();
  /** The handler of a route: its action, and the agent API's path below the run. */
  const route =
    (action: RunsAction, tail: '' | 'events' | 'cancel') =>
    (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
      const runsReq = req as RunsRequest;
      const path = runsUpstreamPath(runsReq.params.runId, tail, req.raw.url ?? '');
      return pass(runsReq, reply, action, path);
    };

  typed.get(RUNS_ROUTES.runs, { schema: listRunsOperation() }, route('viewRuns', ''));
  typed.post(RUNS_ROUTES.runs, { schema: startRunOperation() }, route('startRuns', ''));
  typed.get(RUNS_ROUTES.run, { schema: getRunOperation() }, route('viewRuns', ''));
  typed.get(RUNS_ROUTES.events, { schema: runEventsOperation() }, route('viewRuns', 'events'));
  typed.post(RUNS_ROUTES.cancel, { schema: cancelRunOperation() }, route('startRuns', 'cancel'));
}
