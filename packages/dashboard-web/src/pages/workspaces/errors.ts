import { ApiError, seg } from '../../api';

/** The API path of a workspace, or of something in it: `apiPath('team', 'agents', 'writer')`. */
export function apiPath(workspace: string, ...segments: string[]): string {
  return ['/api/workspaces', seg(workspace), ...segments.map(seg)].join('/');
}

/** A message as a sentence: capitalised, ending with a full stop. */
export function sentence(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '') return trimmed;
  const first = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(first) ? first : `${first}.`;
}

/**
 * What went wrong with an action, as a sentence a person can act on. `what` names the object the
 * action was about (`the agent "writer"`), for the codes that are about it.
 */
export function errorSentence(error: unknown, what?: string): string {
  if (!(error instanceof ApiError)) {
    return sentence(error instanceof Error ? error.message : String(error));
  }
  const subject = what === undefined ? undefined : sentence(what).slice(0, -1);
  switch (error.code) {
    case 'forbidden':
      return `You are not allowed to do this here: ${sentence(error.message)}`;
    case 'workspace_suspended':
      return 'The workspace is suspended because its budget is exceeded: changes to its agents, prompt packs and tool registries are blocked until it is back under budget.';
    case 'already_exists':
      return subject === undefined
        ? 'Something of that name already exists: choose another name.'
        : `${subject} already exists: choose another name.`;
    case 'invalid_request':
      return `The dashboard refused this: ${sentence(error.message)}`;
    case 'not_found':
      return subject === undefined
        ? `Not found: ${sentence(error.message)}`
        : `${subject} does not exist (any more): ${sentence(error.message)}`;
    case 'conflict':
      return 'This changed meanwhile, elsewhere: reload to see the latest version, then make your change again.';
    case 'last_owner':
      return 'This change would leave the workspace without an owner: keep an owner binding that names a group or service account, or an unexpired owner grant.';
    case 'unavailable':
      return `The cluster cannot be reached right now: ${sentence(error.message)} Try again in a moment.`;
    case 'unauthorized':
      return 'Your session has ended: sign in again.';
    case 'payload_too_large':
      return 'This is too large to save: the dashboard takes at most 64 KiB at once.';
    default:
      return sentence(error.message);
  }
}

/** Whether an error is the API's answer with this code. */
export function isCode(error: unknown, code: string): boolean {
  return error instanceof ApiError && error.code === code;
}
