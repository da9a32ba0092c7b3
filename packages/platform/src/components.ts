import type { ComponentSpec } from './supervisor.js';

export interface LocalPlatform {
  /** Absolute folder for every component's state (./data by default). */
  dataDir: string;
  /** The interface every listener binds: loopback unless asked otherwise. */
  host: string;
}

/**
 * The components of the local platform in start order. Each component adds itself here when it
 * lands: its command, its ready URL, and the lines a newcomer needs to use it.
 */
export function localComponents(_platform: LocalPlatform): ComponentSpec[] {
  return [];
}
