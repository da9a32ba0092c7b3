import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  connect,
  startApiSandbox,
  startSandbox,
  type RunningApiSandbox,
  type RunningSandbox,
} from './sandbox.js';
import { raceScene, type RaceScene } from './swapper.js';

export interface McpRace {
  scene: RaceScene;
  sandbox: RunningSandbox;
  /** One streamable MCP client per worker: each keeps its calls in order, as an agent does. */
  clients: Client[];
  stop: () => Promise<void>;
}

export interface ApiRace {
  scene: RaceScene;
  sandbox: RunningApiSandbox;
  stop: () => Promise<void>;
}

/** Runs `started` on a fresh race scene, removing the scene again if it fails. */
async function onScene<T>(started: (scene: RaceScene) => Promise<T>): Promise<T> {
  const scene = await raceScene();
  try {
    return await started(scene);
  } catch (error) {
    await scene.remove();
    throw error;
  }
}

/** A race scene with a sandbox on its workspace and `clientCount` MCP clients connected to it. */
export function startMcpRace(clientCount: number): Promise<McpRace> {
  return onScene(async (scene) => {
    const sandbox = await startSandbox(scene.workspace);
    let clients: Client[];
    try {
      clients = await Promise.all(
        Array.from({ length: clientCount }, () => connect(sandbox.base, 'streamable')),
      );
    } catch (error) {
      await sandbox.stop();
      throw error;
    }
    const stop = async () => {
      await Promise.all(clients.map((client) => client.close()));
      await sandbox.stop();
      await scene.remove();
    };
    return { scene, sandbox, clients, stop };
  });
}

/** A race scene with a sandbox on its workspace, its human-facing listener started with `flags`. */
export function startApiRace(flags: string[]): Promise<ApiRace> {
  return onScene(async (scene) => {
    const sandbox = await startApiSandbox(scene.workspace, flags);
    const stop = async () => {
      await sandbox.stop();
      await scene.remove();
    };
    return { scene, sandbox, stop };
  });
}
