/**
 * The path of every page of the web interface, as react-router patterns (`:param` one segment,
 * a trailing `*` the rest): the app routes exactly these, and the build writes them to
 * dist/page-paths.json so that the dashboard answers the page for them and a 404 for any other
 * path.
 */
export const PAGE_PATHS = {
  workspaces: '/',
  login: '/login',
  signup: '/signup',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  verifyEmail: '/verify-email',
  workspace: '/workspaces/:name/*',
  apiKeys: '/settings/api-keys',
  changePassword: '/settings/password',
  users: '/admin/users',
  newWorkspace: '/admin/workspaces/new',
} as const;

/** The file of dist/ the build writes PAGE_PATHS' patterns to, as a JSON array. */
export const PAGE_PATHS_FILE = 'page-paths.json';
