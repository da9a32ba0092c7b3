export {
  BUILTIN_PATTERNS,
  parsePatternFile,
  type BuiltinPattern,
  type ScrubPattern,
  type Trigger,
} from './patterns.js';
export {
  CONFIGURED_SECRET,
  Scrubber,
  type ScrubberOptions,
  type ScrubSegment,
} from './scrubber.js';
export { childEnvironment, isSecretName, secretsFromEnv } from './secret-env.js';
export {
  hasMarker,
  restoreEdit,
  restoreMarkers,
  type MarkerInView,
  type Restored,
  type RestoredEdit,
} from './restore.js';
