import { sshFeature } from '../ssh/feature.js';
import { docsFeature } from './docs.js';
import { execFeature } from './exec.js';
import { filesFeature } from './files.js';
import type { FeatureModule } from './listener.js';
import { portForwardFeature } from './port-forward.js';
import type { EnabledFeatures } from './routes.js';

/** The route modules to mount for the flags given: each enable flag is independent. */
export function apiModules(features: EnabledFeatures): FeatureModule[] {
  return [
    docsFeature,
    ...(features.api ? [filesFeature] : []),
    ...(features.exec ? [execFeature] : []),
    ...(features.portForward ? [portForwardFeature] : []),
    ...(features.ssh ? [sshFeature] : []),
  ];
}
