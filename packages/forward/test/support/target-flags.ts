import type { TargetFlags } from '@paddock/forward';

/** The target flags of a command line that names no target, with `over` given. */
export const targetFlags = (over: Partial<TargetFlags> = {}): TargetFlags => ({
  url: undefined,
  token: undefined,
  cookie: undefined,
  headers: [],
  credentialsFile: undefined,
  dashboard: undefined,
  workspace: undefined,
  agent: undefined,
  replica: undefined,
  apiKey: undefined,
  ...over,
});
