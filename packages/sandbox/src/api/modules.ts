import type { FeatureModule } from './listener.js';
import type { EnabledFeatures } from './routes.js';

/**
 * The route modules to mount for the flags given: each enable flag is independent. Features are
 * loaded only when enabled, so a sandbox without SSH never loads the SSH stack (memory, start time).
 */
export async function apiModules(features: EnabledFeatures): Promise<FeatureModule[]> {
  const modules: FeatureModule[] = [(await import('./docs.js')).docsFeature];
  if (features.api) modules.push((await import('./files.js')).filesFeature);
  if (features.exec) modules.push((await import('./exec.js')).execFeature);
  if (features.portForward) modules.push((await import('./port-forward.js')).portForwardFeature);
  if (features.ssh) modules.push((await import('../ssh/feature.js')).sshFeature);
  return modules;
}
