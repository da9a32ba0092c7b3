import { closeSync, constants, fstatSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { HttpError, httpErrors, type Logger } from '@paddock/common';
import { PathError, type Workspace } from '../workspace/containment.js';
import { SharedWatcher } from '../workspace/shared-watcher.js';
import {
  ClientGone,
  downloadFileName,
  MAX_CONCURRENT_DOWNLOADS,
  sendWorkspaceZip,
} from './download.js';
import {
  DEFAULT_KEEPALIVE_SECONDS,
  EventStreams,
  parseLastEventId,
  watchLingerMs,
} from './events.js';
import { sendFile } from './file.js';
import type { FeatureModule } from './listener.js';
import { ROUTES } from './routes.js';
import { listTree, TREE_MAX_ENTRIES } from './tree.js';

/**
 * The file routes of -enable-api: the tree, one file's bytes, change events and the whole workspace
 * as a zip. Every path goes through Workspace.resolve, the containment the MCP tools use.
 */
export const filesFeature: FeatureModule = (app, ctx) => {
  const { workspace, logger } = ctx;
  // Started by the first /api/events subscriber, stopped after the last one (see SharedWatcher).
  const watcher = new SharedWatcher(workspace.root, logger, watchLingerMs());
  const streams = new EventStreams(watcher, keepAliveSeconds(process.env, logger) * 1000, logger);
  const downloads = new Set<ServerResponse>();
  let closing = false;

  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  routes.get(ROUTES.tree.path, { schema: ROUTES.tree.schema }, async (req) => {
    const { depth } = req.query;
    const real = await resolve(workspace, req.query.path || '.');
    const display = workspace.relative(real);
    try {
      if (!isFolderInside(workspace, real))
        throw httpErrors.invalidRequest(`${display} is not a directory; use /api/file`);
      const listing = await listTree(real, display, {
        maxDepth: depth,
        maxEntries: TREE_MAX_ENTRIES,
      });
      return { root: display, ...listing };
    } catch (err) {
      throw fsError(err, display);
    }
  });

  routes.get(ROUTES.file.path, { schema: ROUTES.file.schema }, async (req, reply) => {
    const real = await resolve(workspace, req.query.path);
    const display = workspace.relative(real);
    try {
      sendFile(reply, req.headers, workspace, real, display, req.method === 'HEAD');
    } catch (err) {
      throw fsError(err, display);
    }
    return reply;
  });

  // HEAD would open a stream or build a zip for nothing: these two answer GET only (HEAD gets 405).
  routes.get(
    ROUTES.events.path,
    { schema: ROUTES.events.schema, exposeHeadRoute: false },
    async (req, reply) => {
      if (streams.full)
        throw httpErrors.unavailable('too many event streams are open; try again later');
      reply.hijack();
      await streams.start(reply.raw, parseLastEventId(req.headers['last-event-id']));
    },
  );

  routes.get(
    ROUTES.download.path,
    { schema: ROUTES.download.schema, exposeHeadRoute: false },
    async (req, reply) => {
      if (downloads.size >= MAX_CONCURRENT_DOWNLOADS) {
        throw httpErrors.unavailable(
          `${MAX_CONCURRENT_DOWNLOADS} downloads are running; try again later`,
        );
      }
      reply.hijack();
      const res = reply.raw;
      // However long the zip takes, no timeout may cut it: the client's pace is the only limit.
      res.setTimeout(0);
      downloads.add(res);
      const started = Date.now();
      const fileName = downloadFileName(new Date(started));
      try {
        await sendWorkspaceZip(workspace.root, res, fileName, logger);
        logger.info({ sub: req.identity.sub, ms: Date.now() - started }, 'workspace downloaded');
      } catch (err) {
        if (closing) logger.info({ sub: req.identity.sub }, 'download stopped by the shutdown');
        else if (err instanceof ClientGone)
          logger.info({ sub: req.identity.sub }, 'download cancelled by the client');
        else logger.warn({ err, sub: req.identity.sub }, 'download aborted');
      } finally {
        downloads.delete(res);
      }
    },
  );

  // Nothing watches the workspace until /api/events has a subscriber.
  return Promise.resolve({
    close: async () => {
      closing = true;
      streams.closeAll();
      for (const res of downloads) res.destroy();
      await watcher.close();
    },
  });
};

/** SVC_API_KEEPALIVE_SECONDS, a positive number of seconds (tests shorten it); 15 otherwise. */
export function keepAliveSeconds(env: NodeJS.ProcessEnv, logger?: Logger): number {
  const raw = env.SVC_API_KEEPALIVE_SECONDS;
  if (raw === undefined || raw.trim() === '') return DEFAULT_KEEPALIVE_SECONDS;
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds > 0) return seconds;
  logger?.warn(
    { value: raw },
    `SVC_API_KEEPALIVE_SECONDS is not a positive number; using ${DEFAULT_KEEPALIVE_SECONDS}`,
  );
  return DEFAULT_KEEPALIVE_SECONDS;
}

/** Whether `real` is a folder, asked of a descriptor opened without following symlinks. */
function isFolderInside(workspace: Workspace, real: string): boolean {
  const fd = workspace.openInside(
    real,
    constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY,
  );
  try {
    return fstatSync(fd).isDirectory();
  } finally {
    closeSync(fd);
  }
}

/** The caller's path contained in the workspace; anything the containment refuses is a 400. */
async function resolve(workspace: Workspace, userPath: string): Promise<string> {
  try {
    return await workspace.resolve(userPath);
  } catch (err) {
    if (err instanceof PathError) throw httpErrors.invalidRequest(err.message);
    throw fsError(err, userPath);
  }
}

/** A file-system error the caller's path caused, as the envelope says it; others pass unchanged. */
function fsError(err: unknown, display: string): unknown {
  if (err instanceof HttpError) return err;
  // Changed between the containment check and the open: refused like any path outside.
  if (err instanceof PathError) return httpErrors.invalidRequest(err.message);
  switch ((err as NodeJS.ErrnoException | null)?.code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return httpErrors.notFound(`${display} does not exist`);
    case 'EACCES':
    case 'EPERM':
      return httpErrors.forbidden(`permission denied: ${display}`);
    case 'ELOOP':
      return httpErrors.invalidRequest(`${display} became a symlink; ask again`);
    case 'ENXIO':
      // open(2) of a socket (or a device nothing serves): never a file to send.
      return httpErrors.invalidRequest(`${display} is not a regular file`);
    default:
      return err;
  }
}
