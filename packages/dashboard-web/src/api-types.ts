/**
 * The dashboard's HTTP API as TypeScript types: GENERATED from its OpenAPI document (the routes'
 * schemas) by `npm run generate`. Do not edit; change a route's schema and generate again.
 */

export interface paths {
  '/healthz': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Liveness
     * @description Answers 200 while the process serves requests.
     */
    get: operations['getHealth'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/readyz': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Readiness
     * @description Ready when every readiness check passes and the dashboard is not shutting down. With a cluster, the check `workspaces` passes once the Workspaces have been listed and are being watched. The 503 answer has this shape too, not the error shape.
     */
    get: operations['getReadiness'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/metrics': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Prometheus metrics
     * @description The dashboard’s metrics in the Prometheus text format: requests by route pattern, method and status with their durations, sign-ins by mode and result, API key verifications, the door’s open requests and bytes, and the process’s own. Any role may read them ("View metrics"); a scraper presents an API key. Answered whatever the Host header, as Prometheus addresses pods by IP.
     */
    get: operations['getMetrics'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/config': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * How to sign in
     * @description The authentication mode and what the sign-in page needs to know, before anyone signs in.
     */
    get: operations['getAuthConfig'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/me': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The current user
     * @description The caller as the dashboard sees them: the user object of the specification, with the current role and groups. `provider` says how the request was authenticated (`api-key` for an API key).
     */
    get: operations['getMe'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/logout': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Sign out
     * @description Clears the session cookie; succeeds without one too. In oauth mode, when the provider supports single sign-on logout, `redirectUrl` is where the browser should go next to end the provider’s session as well (back to `{public_origin}/login`).
     */
    post: operations['logout'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/logout-everywhere': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Sign out everywhere
     * @description Ends every session of the caller, on every browser and every replica (the others within one second), and clears this request’s session cookie. API keys stay valid: they are listed and revoked under /api/settings/api-keys. A single logout ends only its own session, copies of its cookie included.
     */
    post: operations['logoutEverywhere'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/builtin/change-password': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Change your password
     * @description The caller, a user of the built-in store, changes their own password, giving the current one. A wrong current password counts as a failed sign-in from the caller’s address: after SVC_BUILTIN_MAX_FAILED_ATTEMPTS of them the address is locked out of the account as the sign-in form would be (`account_locked`). On success every other session of the user ends, on every replica (within one second on the others); the caller’s session goes on with a new cookie. The user’s API keys stay valid: they are listed and revoked under /api/settings/api-keys. In the other modes the identity provider keeps the passwords: the route answers `invalid_request`.
     */
    post: operations['builtinChangePassword'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/login': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Start the OAuth sign-in (link)
     * @description Only in `oauth` mode; in the others there is no such route (404 `not_found`, or 401 to a caller without a credential).
     *
     *     Starts the authorization code flow with PKCE and a state value: stores them in a short-lived session cookie (10 minutes) and redirects to the provider. The provider sends the browser back to `/api/auth/callback`.
     */
    get: operations['startOAuthLogin'];
    put?: never;
    /**
     * Start the OAuth sign-in (form)
     * @description Only in `oauth` mode; in the others there is no such route (404 `not_found`, or 401 to a caller without a credential).
     *
     *     As `GET /api/auth/login`, for a form post: answers 303. No body is read.
     */
    post: operations['startOAuthLoginForm'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/callback': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * OAuth callback
     * @description Only in `oauth` mode; in the others there is no such route (404 `not_found`, or 401 to a caller without a credential).
     *
     *     Where the provider sends the browser back (`{public_origin}/api/auth/callback`). Checks the state against the sign-in’s session cookie, exchanges the code, reads the user’s claims, records the user and starts the session, then redirects to the `returnTo` of the sign-in. Failures never answer JSON: they clear the cookie and redirect to `/login?error=<code>` with one of `invalid_state`, `no_code`, `callback_failed`, `access_denied`, `invalid_claims`, `config_error` (`access_denied` also for a disabled user).
     */
    get: operations['finishOAuthLogin'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/refresh': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Renew the provider’s tokens
     * @description Only in `oauth` mode; in the others there is no such route (404 `not_found`, or 401 to a caller without a credential).
     *
     *     Renews the OAuth access token of the session with its refresh token, and rewrites the session cookie. Only a session cookie from the OAuth sign-in can be refreshed.
     */
    post: operations['refreshOAuthSession'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/builtin/login': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Sign in with a password
     * @description Only in `builtin` mode; in the others there is no such route (404 `not_found`, or 401 to a caller without a credential).
     *
     *     Signs in a user of the built-in store and starts the session. Failed attempts are counted per account (per identifier when none matches) and answered alike; SVC_BUILTIN_MAX_FAILED_ATTEMPTS of them lock sign-in for SVC_BUILTIN_LOCKOUT_DURATION seconds and end the account’s sessions.
     */
    post: operations['builtinLogin'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/builtin/signup': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Create an account
     * @description Only in `builtin` mode; in the others there is no such route (404 `not_found`, or 401 to a caller without a credential).
     *
     *     Creates a user of the built-in store (role from no groups: viewer) when SVC_BUILTIN_ALLOW_SIGNUP is on. Signed in at once, unless SVC_BUILTIN_VERIFY_EMAIL is on: then a confirmation mail goes out and `verificationRequired` is true.
     */
    post: operations['builtinSignup'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/builtin/forgot-password': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Ask for a password reset mail
     * @description Only in `builtin` mode; in the others there is no such route (404 `not_found`, or 401 to a caller without a credential).
     *
     *     Mails a reset link (`{public_origin}/reset-password?token=…`, valid SVC_BUILTIN_RESET_TOKEN_EXPIRATION seconds) when an enabled account has the address. Always answers success, so that it tells nothing of which addresses are registered.
     */
    post: operations['builtinForgotPassword'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/builtin/reset-password': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Set a new password with a mailed token
     * @description Only in `builtin` mode; in the others there is no such route (404 `not_found`, or 401 to a caller without a credential).
     *
     *     Sets the password with the token of a reset mail (single use). It also confirms the address, ends every session of the account and lifts a lockout. The user signs in afterwards.
     */
    post: operations['builtinResetPassword'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/builtin/verify-email': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Confirm an e-mail address with a mailed token
     * @description Only in `builtin` mode; in the others there is no such route (404 `not_found`, or 401 to a caller without a credential).
     *
     *     Confirms the address with the token of a verification mail (single use).
     */
    post: operations['builtinVerifyEmail'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/builtin/resend-verification': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Ask for a new verification mail
     * @description Only in `builtin` mode; in the others there is no such route (404 `not_found`, or 401 to a caller without a credential).
     *
     *     Mails a fresh verification link when an enabled, unconfirmed account has the address; earlier links stop working. Always answers success, like forgot-password.
     */
    post: operations['builtinResendVerification'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/settings/api-keys': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Your API keys
     * @description The caller’s keys that are not revoked (expired ones included), newest first. Never the secret: only its first characters (`prefix`).
     */
    get: operations['listOwnApiKeys'];
    put?: never;
    /**
     * Create an API key
     * @description Creates a key for the caller. The key itself is in this answer only, once; store it. It authenticates as its owner (`provider: api-key`) with the owner’s current role.
     */
    post: operations['createApiKey'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/settings/api-keys/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Revoke one of your API keys
     * @description Revokes the key at once. Another user’s key answers 404, as an unknown id does.
     */
    delete: operations['revokeOwnApiKey'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/admin/api-keys': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Every user’s API keys
     * @description The keys of every user that are not revoked, newest first, one page of them. Admins only. Unlike the other lists, the answer holds no `total`, `limit` or `offset`.
     */
    get: operations['listAllApiKeys'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/admin/api-keys/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Revoke any API key
     * @description Revokes any user’s key at once. Admins only.
     */
    delete: operations['revokeApiKey'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/users': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The users
     * @description Every recorded user (built-in accounts, and proxy and OAuth users seen so far), oldest first. Admins only.
     */
    get: operations['listUsers'];
    put?: never;
    /**
     * Create a built-in user
     * @description Creates a user of the built-in store, with the checks and errors of sign-up (whether or not SVC_BUILTIN_ALLOW_SIGNUP is on). With mail (SVC_SMTP_URL) the user is sent a link to choose their password, valid SVC_BUILTIN_RESET_TOKEN_EXPIRATION seconds, and following it confirms the address; without, a generated password is answered once as `initialPassword` and the address counts as confirmed (the admin vouches for it). Admins only; in the other modes the identity provider keeps the users (`invalid_request`).
     */
    post: operations['createUser'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/users/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /**
     * Change a built-in user
     * @description Changes a user of the built-in store: the role override (null: follow the groups), the groups, disabled. Disabling ends the user’s sessions; a new role or groups apply from the next request. Admins only; the identity provider decides the other users. An admin cannot disable themselves or give up their own admin role.
     */
    patch: operations['updateUser'];
    trace?: never;
  };
  '/api/users/{id}/reset-password': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Mail a user a password reset link
     * @description Sends a user of the built-in store the mail of forgot-password at once: a link to choose a new password, valid SVC_BUILTIN_RESET_TOKEN_EXPIRATION seconds; earlier links stop working. The current password keeps working until the link is used. Admins only; without mail (no SVC_SMTP_URL) it answers `conflict`: reset the password from the machine instead (`paddock-dashboard users reset-password`).
     */
    post: operations['sendUserResetMail'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/workspaces': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Your workspaces
     * @description The workspaces the caller holds a role in (from group bindings, unexpired direct grants and anonymous access), with that role.
     */
    get: operations['listWorkspaces'];
    put?: never;
    /**
     * Create a workspace
     * @description Creates a Workspace, for the dashboard’s admins. The body is the Workspace’s `name` (a DNS-1123 label) and the fields of its spec, checked against the resource definition’s schema with unknown fields refused. `namespace` defaults to `{name: <name>, create: true}`. Unless `roleBindings` or `directGrants` name an owner (an owner binding, an unexpired owner grant), the creator becomes its owner through a direct grant of their username. The answer is the workspace as its creator sees it; null when the creator holds no role in it.
     */
    post: operations['createWorkspace'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/workspaces/{name}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A workspace
     * @description A workspace’s details: quotas, network policy, budgets and spending, member counts, conditions, what the caller may do there (`permissions`) and, for owners only, who has access (`access`).
     */
    get: operations['getWorkspace'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/workspaces/{name}/agents': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The agents of a workspace
     * @description The AgentRuntimes of the workspace’s namespace, by name.
     */
    get: operations['listAgents'];
    put?: never;
    /**
     * Create an agent
     * @description Creates an AgentRuntime in the workspace’s namespace, following a prompt pack of the workspace. Needs the dashboard role editor or admin and the workspace role owner or editor.
     */
    post: operations['createAgent'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/workspaces/{name}/agents/{agentName}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * An agent, with its pods
     * @description One AgentRuntime and the pods it runs, by name.
     */
    get: operations['getAgent'];
    put?: never;
    post?: never;
    /**
     * Delete an agent
     * @description Deletes the AgentRuntime; the cluster removes its pods.
     */
    delete: operations['deleteAgent'];
    options?: never;
    head?: never;
    /**
     * Scale an agent
     * @description Sets the agent’s replicas. The workspace’s maxReplicasPerAgent quota may hold the running count below it (condition ReplicasLimited).
     */
    patch: operations['scaleAgent'];
    trace?: never;
  };
  '/api/workspaces/{name}/promptpacks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The prompt packs of a workspace
     * @description The PromptPacks of the workspace’s namespace, by name.
     */
    get: operations['listPromptPacks'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/workspaces/{name}/toolregistries': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The tool registries of a workspace
     * @description The ToolRegistries of the workspace’s namespace, by name.
     */
    get: operations['listToolRegistries'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/workspaces/{name}/agents/{agentName}/logs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The log of an agent
     * @description The log of one container of one of the agent’s pods, as plain text: the pod asked for, else the newest running one, else the newest; the container asked for, else the pod’s first. `x-pod` and `x-container` name the ones read. With `follow=true` the answer is streamed as the container writes, until the client leaves or the container ends.
     */
    get: operations['getAgentLogs'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/workspaces/{name}/agents/{agentName}/events': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The events of an agent
     * @description The cluster’s events about the AgentRuntime and its pods, oldest first (by last seen).
     */
    get: operations['listAgentEvents'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/workspaces/{name}/promptpacks/{pack}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /**
     * Create or replace a prompt pack
     * @description Creates the PromptPack (201) or replaces its spec (200). A replacement fails with `conflict` when the pack changed between the dashboard’s read and write.
     */
    put: operations['putPromptPack'];
    post?: never;
    /**
     * Delete a prompt pack
     * @description Deletes the PromptPack.
     */
    delete: operations['deletePromptPack'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/workspaces/{name}/toolregistries/{registry}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /**
     * Create or replace a tool registry
     * @description Creates the ToolRegistry (201) or replaces its spec (200); the cluster validates the spec. A replacement fails with `conflict` when the registry changed between the dashboard’s read and write.
     */
    put: operations['putToolRegistry'];
    post?: never;
    /**
     * Delete a tool registry
     * @description Deletes the ToolRegistry.
     */
    delete: operations['deleteToolRegistry'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/workspaces/{name}/access': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /**
     * Change who has access
     * @description Replaces the fields given (roleBindings, directGrants, anonymousAccess; absent ones stay as they are) on the Workspace. For the workspace’s owners, whatever their dashboard role; also while the workspace is suspended. Someone must remain able to manage the members: an owner binding naming a group or ServiceAccount, or an unexpired owner grant (anonymous ownership does not count). Written through the dashboard’s own identity, only if the Workspace did not change since it was read.
     */
    put: operations['putWorkspaceAccess'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/workspaces/{name}/toolregistries/{registry}/tools': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The tools of a tool registry, discovered live
     * @description Discovers the registry’s handlers now (or reuses a discovery of the last seconds) and answers each tool with its description, input schema, endpoint and status, and each handler with why it could not be reached. mcp stdio handlers are never run by the dashboard: their tools are listed from the status, without schema.
     */
    get: operations['listRegistryTools'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/workspaces/{name}/toolregistries/{registry}/tools/{tool}/call': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Try a tool of a tool registry
     * @description Calls the tool with the arguments, through its handler’s protocol and timeout, as an agent would, and answers what it returned and how long it took. A tool that fails answers 200 with `isError`. Needs the dashboard role editor or admin and the workspace role owner or editor. The call is logged with its caller, never its argument values.
     */
    post: operations['callRegistryTool'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/workspaces/{name}/agents/{agentName}/pods/{podName}/runs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A pod’s runs: the kept ones, the running one, the queue
     * @description The agent loop’s runs API of one pod (its second container, in agents whose AgentRuntime names a `spec.provider`), passed on as the pod answers. The credential and any identity header the client sent are removed; the agent is told the user in `X-Forwarded-Sub`, `-User` and `-Groups` with a proof signed by the dashboard (`X-Paddock-Proof`), and records that user as who started a run. Viewers list runs and follow them; editors and owners also start and cancel them.
     */
    get: operations['listAgentRuns'];
    put?: never;
    /**
     * Start a run on a pod (queued behind the running one)
     * @description The agent loop’s runs API of one pod (its second container, in agents whose AgentRuntime names a `spec.provider`), passed on as the pod answers. The credential and any identity header the client sent are removed; the agent is told the user in `X-Forwarded-Sub`, `-User` and `-Groups` with a proof signed by the dashboard (`X-Paddock-Proof`), and records that user as who started a run. Viewers list runs and follow them; editors and owners also start and cancel them.
     */
    post: operations['startAgentRun'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/workspaces/{name}/agents/{agentName}/pods/{podName}/runs/{runId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One run of a pod
     * @description The agent loop’s runs API of one pod (its second container, in agents whose AgentRuntime names a `spec.provider`), passed on as the pod answers. The credential and any identity header the client sent are removed; the agent is told the user in `X-Forwarded-Sub`, `-User` and `-Groups` with a proof signed by the dashboard (`X-Paddock-Proof`), and records that user as who started a run. Viewers list runs and follow them; editors and owners also start and cancel them.
     */
    get: operations['getAgentRun'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/workspaces/{name}/agents/{agentName}/pods/{podName}/runs/{runId}/events': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A run’s transcript as server-sent events, live and resumable
     * @description The agent loop’s runs API of one pod (its second container, in agents whose AgentRuntime names a `spec.provider`), passed on as the pod answers. The credential and any identity header the client sent are removed; the agent is told the user in `X-Forwarded-Sub`, `-User` and `-Groups` with a proof signed by the dashboard (`X-Paddock-Proof`), and records that user as who started a run. Viewers list runs and follow them; editors and owners also start and cancel them.
     */
    get: operations['streamAgentRunEvents'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/workspaces/{name}/agents/{agentName}/pods/{podName}/runs/{runId}/cancel': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Cancel a run: its model stream and its tool in flight stop
     * @description The agent loop’s runs API of one pod (its second container, in agents whose AgentRuntime names a `spec.provider`), passed on as the pod answers. The credential and any identity header the client sent are removed; the agent is told the user in `X-Forwarded-Sub`, `-User` and `-Groups` with a proof signed by the dashboard (`X-Paddock-Proof`), and records that user as who started a run. Viewers list runs and follow them; editors and owners also start and cancel them.
     */
    post: operations['cancelAgentRun'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/workspaces/{name}/agents/{agentName}/pods/{podName}/sandbox/{sandboxPath}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A pod’s sandbox: read, or open a terminal or tunnel
     * @description Passes the request to the pod’s sandbox (its human API, as its own OpenAPI description says) and streams the answer back: plain answers, server-sent events (`api/events`, with `Last-Event-ID`) and WebSockets (`api/exec`, `api/port-forward`) alike. The credential and any identity header the client sent are removed; the sandbox is told the user in `X-Forwarded-Sub`, `-User` and `-Groups` with a proof signed by the dashboard (`X-Paddock-Proof`). Viewers read (`api/tree`, `api/file`, `api/events`, `api/download`, `api/openapi.yaml`); editors and owners also open terminals and tunnels and manage SSH keys (`api/exec`, `api/port-forward`, `api/ssh-port`, `api/ssh-authorized-keys`). What the pod serves may not set cookies or run scripts on the dashboard’s origin.
     */
    get: operations['readAgentSandbox'];
    put?: never;
    /**
     * A pod’s sandbox: register an SSH key
     * @description Passes the request to the pod’s sandbox (its human API, as its own OpenAPI description says) and streams the answer back: plain answers, server-sent events (`api/events`, with `Last-Event-ID`) and WebSockets (`api/exec`, `api/port-forward`) alike. The credential and any identity header the client sent are removed; the sandbox is told the user in `X-Forwarded-Sub`, `-User` and `-Groups` with a proof signed by the dashboard (`X-Paddock-Proof`). Viewers read (`api/tree`, `api/file`, `api/events`, `api/download`, `api/openapi.yaml`); editors and owners also open terminals and tunnels and manage SSH keys (`api/exec`, `api/port-forward`, `api/ssh-port`, `api/ssh-authorized-keys`). What the pod serves may not set cookies or run scripts on the dashboard’s origin.
     */
    post: operations['postAgentSandbox'];
    /**
     * A pod’s sandbox: remove an SSH key
     * @description Passes the request to the pod’s sandbox (its human API, as its own OpenAPI description says) and streams the answer back: plain answers, server-sent events (`api/events`, with `Last-Event-ID`) and WebSockets (`api/exec`, `api/port-forward`) alike. The credential and any identity header the client sent are removed; the sandbox is told the user in `X-Forwarded-Sub`, `-User` and `-Groups` with a proof signed by the dashboard (`X-Paddock-Proof`). Viewers read (`api/tree`, `api/file`, `api/events`, `api/download`, `api/openapi.yaml`); editors and owners also open terminals and tunnels and manage SSH keys (`api/exec`, `api/port-forward`, `api/ssh-port`, `api/ssh-authorized-keys`). What the pod serves may not set cookies or run scripts on the dashboard’s origin.
     */
    delete: operations['deleteAgentSandbox'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/workspaces/{name}/agents/{agentName}/mcp': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The agent’s MCP server (Streamable HTTP): the session’s stream
     * @description The agent’s MCP server, for an agent or an IDE anywhere: editors and owners, with an API key or a session. A new session goes to a Ready replica; the session id the client gets, `<ordinal>.<id>`, brings every later request of the session to the same replica.
     */
    get: operations['streamAgentMcp'];
    put?: never;
    /**
     * The agent’s MCP server (Streamable HTTP): a JSON-RPC message
     * @description The agent’s MCP server, for an agent or an IDE anywhere: editors and owners, with an API key or a session. A new session goes to a Ready replica; the session id the client gets, `<ordinal>.<id>`, brings every later request of the session to the same replica.
     */
    post: operations['postAgentMcp'];
    /**
     * The agent’s MCP server (Streamable HTTP): end the session
     * @description The agent’s MCP server, for an agent or an IDE anywhere: editors and owners, with an API key or a session. A new session goes to a Ready replica; the session id the client gets, `<ordinal>.<id>`, brings every later request of the session to the same replica.
     */
    delete: operations['deleteAgentMcp'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/workspaces/{name}/agents/{agentName}/sse': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The agent’s MCP server (SSE transport): open a session
     * @description The agent’s MCP server, for an agent or an IDE anywhere: editors and owners, with an API key or a session. A new session goes to a Ready replica; the session id the client gets, `<ordinal>.<id>`, brings every later request of the session to the same replica.
     *
     *     The first event, `endpoint`, names the path to POST messages to, relative to this one: `message?sessionId=<ordinal>.<id>`.
     */
    get: operations['openAgentMcpSse'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/workspaces/{name}/agents/{agentName}/message': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * The agent’s MCP server (SSE transport): a JSON-RPC message
     * @description The agent’s MCP server, for an agent or an IDE anywhere: editors and owners, with an API key or a session. A new session goes to a Ready replica; the session id the client gets, `<ordinal>.<id>`, brings every later request of the session to the same replica.
     *
     *     The answer comes on the session’s SSE stream.
     */
    post: operations['postAgentMcpSseMessage'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/openapi.yaml': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * This description, as YAML
     * @description This OpenAPI 3.1 document, as YAML: the routes of the mode the dashboard runs in.
     */
    get: operations['getOpenApiYaml'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/openapi.json': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * This description, as JSON
     * @description This OpenAPI 3.1 document, as JSON: the same document as the YAML one.
     */
    get: operations['getOpenApiJson'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    Access: {
      resourceVersion: string | null;
      /** @description Identity-provider groups and ServiceAccounts granted a role. */
      roleBindings: {
        groups?: string[];
        serviceAccounts?: {
          name: string;
          namespace: string;
        }[];
        /**
         * @description owner: full control including members; editor: create and modify resources; viewer: read-only.
         * @enum {string}
         */
        role: 'owner' | 'editor' | 'viewer';
      }[];
      directGrants: {
        user: string;
        role: components['schemas']['WorkspaceRole'];
        /**
         * Format: date-time
         * @description When a temporary grant ends (RFC 3339).
         */
        expires?: string;
        /** @description Whether the grant is in force now */
        active: boolean;
      }[];
      /** @description Editor or owner lets anonymous users modify resources: isolated development only. */
      anonymousAccess: {
        enabled: boolean;
        /**
         * @description owner: full control including members; editor: create and modify resources; viewer: read-only.
         * @default viewer
         * @enum {string}
         */
        role: 'owner' | 'editor' | 'viewer';
      };
    };
    AccessChange: {
      /** @description The resourceVersion of the access read; when given, a change made since answers 409 conflict */
      resourceVersion?: string;
      roleBindings?: {
        groups?: string[];
        serviceAccounts?: {
          name: string;
          namespace: string;
        }[];
        role: components['schemas']['WorkspaceRole'];
      }[];
      directGrants?: {
        /** @description A username or an e-mail address (case-insensitive) */
        user: string;
        role: components['schemas']['WorkspaceRole'];
        expires?: string | null;
      }[];
      anonymousAccess?: {
        enabled: boolean;
        role?: components['schemas']['WorkspaceRole'];
      };
    };
    /** @description A recorded user as admins see it */
    AdminUser: {
      id: string;
      username: string;
      email: string | null;
      displayName: string | null;
      groups: string[];
      role: components['schemas']['Role'];
      roleOverride: components['schemas']['Role'] | null;
      provider: 'proxy' | 'oauth' | 'builtin';
      disabled: boolean;
      emailVerified: boolean;
      /** Format: date-time */
      created: string;
    };
    /** @description An AgentRuntime */
    Agent: {
      name: string;
      /** @description The prompt pack it follows */
      promptPack: string;
      /** @description Wanted */
      replicas: number;
      /** @description Pods that exist */
      currentReplicas: number;
      /** @description Pods that are ready */
      readyReplicas: number;
      phase: 'Pending' | 'Running' | 'Failed';
      model: string | null;
      provider: {
        /** @enum {unknown} */
        type: 'openai' | 'anthropic';
        model?: string;
      } | null;
      runLimits: {
        /**
         * @description Model calls per run.
         * @default 50
         */
        maxTurns: number;
        /**
         * @description Input and output tokens per run, summed over its model calls.
         * @default 2000000
         */
        maxTokens: number;
        /**
         * @description Wall time per run, such as 30m or 2h.
         * @default 30m
         */
        maxWallTime: string;
      } | null;
      image: string | null;
      env: {
        [key: string]: string;
      };
      /** @description The operator scaled it to 0 while the workspace’s budget is exceeded */
      pausedForBudget: boolean;
      costUsage: {
        /** @description YYYY-MM-DD. */
        day?: string;
        /** @description Spent on that day. */
        dailySpend?: string;
        /** @description YYYY-MM. */
        month?: string;
        /** @description Spent in that month, that day included. */
        monthlySpend?: string;
      } | null;
      conditions: components['schemas']['Condition'][];
      createdAt: string | null;
    };
    /** @description An AgentRuntime with its pods */
    AgentDetails: {
      name: string;
      /** @description The prompt pack it follows */
      promptPack: string;
      /** @description Wanted */
      replicas: number;
      /** @description Pods that exist */
      currentReplicas: number;
      /** @description Pods that are ready */
      readyReplicas: number;
      phase: 'Pending' | 'Running' | 'Failed';
      model: string | null;
      provider: {
        /** @enum {unknown} */
        type: 'openai' | 'anthropic';
        model?: string;
      } | null;
      runLimits: {
        /**
         * @description Model calls per run.
         * @default 50
         */
        maxTurns: number;
        /**
         * @description Input and output tokens per run, summed over its model calls.
         * @default 2000000
         */
        maxTokens: number;
        /**
         * @description Wall time per run, such as 30m or 2h.
         * @default 30m
         */
        maxWallTime: string;
      } | null;
      image: string | null;
      env: {
        [key: string]: string;
      };
      /** @description The operator scaled it to 0 while the workspace’s budget is exceeded */
      pausedForBudget: boolean;
      costUsage: {
        /** @description YYYY-MM-DD. */
        day?: string;
        /** @description Spent on that day. */
        dailySpend?: string;
        /** @description YYYY-MM. */
        month?: string;
        /** @description Spent in that month, that day included. */
        monthlySpend?: string;
      } | null;
      conditions: components['schemas']['Condition'][];
      createdAt: string | null;
      pods: components['schemas']['Pod'][];
    };
    /** @description An API key as listed: never its secret */
    ApiKey: {
      id: string;
      name: string;
      /** @description The first characters of the key */
      prefix: string;
      /** Format: date-time */
      created: string;
      expires: string | null;
      lastUsed: string | null;
      /** @description The owner */
      userId: string;
    };
    AuthConfig: {
      /** @enum {unknown} */
      mode: 'anonymous' | 'proxy' | 'oauth' | 'builtin';
      /** @description builtin mode with sign-up allowed */
      signupAllowed: boolean;
      /** @description builtin mode with e-mail verification */
      verifyEmail: boolean;
      provider: ('generic' | 'google' | 'github' | 'azure' | 'okta') | null;
      apiKeysEnabled: boolean;
      minPasswordLength: number;
    };
    BuiltinLogin: {
      /** @description The username or e-mail address */
      username: string;
      password: string;
    };
    BuiltinSignup: {
      /** @description 2 to 64 letters, digits, `.`, `_` and `-`, starting with a letter or digit (no `@`) */
      username: string;
      email: string;
      /** @description At least SVC_BUILTIN_MIN_PASSWORD_LENGTH characters, at most 1024 */
      password: string;
      displayName?: string | null;
    };
    ChangePassword: {
      /** @description The password the user signs in with now */
      currentPassword: string;
      /** @description At least SVC_BUILTIN_MIN_PASSWORD_LENGTH characters, at most 1024 */
      newPassword: string;
    };
    Condition: {
      /** @description The condition, in CamelCase, such as Ready. */
      type: string;
      /** @enum {string} */
      status: 'True' | 'False' | 'Unknown';
      /** @description Why, in CamelCase, for machines. */
      reason?: string;
      /** @description Why, for people. */
      message?: string;
      /**
       * Format: date-time
       * @description When status last changed.
       */
      lastTransitionTime?: string;
      /**
       * Format: int64
       * @description The metadata.generation this condition was set from.
       */
      observedGeneration?: number;
    };
    CreatedUser: {
      user: components['schemas']['AdminUser'];
      /** @description Without mail (no SVC_SMTP_URL): the generated password, answered this once, for the admin to hand over. The user changes it after signing in. */
      initialPassword?: string;
      /** @description With mail: the user was sent a link to choose their password (valid SVC_BUILTIN_RESET_TOKEN_EXPIRATION seconds); no password is answered. */
      setPasswordMailSent: boolean;
    };
    EmailOnly: {
      email: string;
    };
    /** @description The one error body of every Paddock HTTP API. Each code has one status: `invalid_request` 400, `password_too_short` 400, `invalid_token` 400, `unauthorized` 401, `invalid_credentials` 401, `forbidden` 403, `email_not_verified` 403, `signup_disabled` 403, `not_found` 404, `method_not_allowed` 405, `email_exists` 409, `already_exists` 409, `conflict` 409, `last_owner` 409, `workspace_suspended` 409, `username_exists` 409, `api_key_limit_reached` 409, `payload_too_large` 413, `unsupported_media_type` 415, `misdirected_request` 421, `account_locked` 423, `rate_limited` 429, `internal_error` 500, `bad_gateway` 502, `unavailable` 503. */
    Error: {
      /**
       * @description A stable code
       * @example not_found
       * @enum {string}
       */
      error:
        | 'invalid_request'
        | 'password_too_short'
        | 'invalid_token'
        | 'unauthorized'
        | 'invalid_credentials'
        | 'forbidden'
        | 'email_not_verified'
        | 'signup_disabled'
        | 'not_found'
        | 'method_not_allowed'
        | 'email_exists'
        | 'already_exists'
        | 'conflict'
        | 'last_owner'
        | 'workspace_suspended'
        | 'username_exists'
        | 'api_key_limit_reached'
        | 'payload_too_large'
        | 'unsupported_media_type'
        | 'misdirected_request'
        | 'account_locked'
        | 'rate_limited'
        | 'internal_error'
        | 'bad_gateway'
        | 'unavailable';
      /** @description What went wrong, for people */
      message: string;
    };
    /** @description A cluster event about an agent or one of its pods */
    Event: {
      /**
       * @example Normal
       * @example Warning
       */
      type: string;
      reason: string;
      message: string;
      object: {
        /**
         * @example AgentRuntime
         * @example Pod
         */
        kind: string;
        name: string;
      };
      count: number;
      firstSeen: string | null;
      lastSeen: string | null;
      source: string | null;
    };
    /** @description The user as the builtin sign-in and sign-up answer it */
    LoginUser: {
      id: string;
      username: string;
      email?: string;
      role: components['schemas']['Role'];
    };
    NewAgent: {
      /** @description A Kubernetes object name */
      name: string;
      /** @description A prompt pack of the workspace */
      promptPack: string;
      /** @default 1 */
      replicas: number;
      model?: string | null;
      image?: string | null;
      env?: {
        [key: string]: string;
      } | null;
    };
    NewApiKey: {
      /** @description 1 to 100 printable characters; trimmed */
      name: string;
      expiresInDays?: number | null;
    };
    NewUser: {
      /** @description 2 to 64 letters, digits, `.`, `_` and `-`, starting with a letter or digit (no `@`) */
      username: string;
      email: string;
      displayName?: string | null;
      /** @description The role override; left out or null: the role follows the groups */
      role?: components['schemas']['Role'] | null;
      groups?: string[];
    };
    NewWorkspace: {
      /** @description The Workspace object’s name: lowercase letters, digits and hyphens, starting and ending with a letter or digit, at most 63 characters. */
      name: string;
      /** @description The name shown in the dashboard. */
      displayName: string;
      description?: string;
      /**
       * @description Default: "development".
       * @enum {string}
       */
      environment?: 'development' | 'staging' | 'production';
      /** @description Labels applied to every resource in the workspace. */
      defaultTags?: {
        [key: string]: string;
      };
      /** @description The namespace of the workspace; absent: `{name: <name>, create: true}`. */
      namespace?: {
        /** @description The namespace’s name; absent: the workspace’s name. */
        name?: string;
        /** @description Create the namespace when it does not exist; false: it must exist already. Default here: true. */
        create?: boolean;
        /** @description Labels set on the namespace. */
        labels?: {
          [key: string]: string;
        };
        /** @description Annotations set on the namespace. */
        annotations?: {
          [key: string]: string;
        };
      };
      /** @description Identity-provider groups and ServiceAccounts granted a role. */
      roleBindings?: {
        groups?: string[];
        serviceAccounts?: {
          name: string;
          namespace: string;
        }[];
        /**
         * @description owner: full control including members; editor: create and modify resources; viewer: read-only.
         * @enum {string}
         */
        role: 'owner' | 'editor' | 'viewer';
      }[];
      /** @description Individual users, for exceptions; groups are preferred. */
      directGrants?: {
        user: string;
        /**
         * @description owner: full control including members; editor: create and modify resources; viewer: read-only.
         * @enum {string}
         */
        role: 'owner' | 'editor' | 'viewer';
        /**
         * Format: date-time
         * @description When a temporary grant ends (RFC 3339).
         */
        expires?: string;
      }[];
      /** @description Editor or owner lets anonymous users modify resources: isolated development only. */
      anonymousAccess?: {
        enabled: boolean;
        /**
         * @description owner: full control including members; editor: create and modify resources; viewer: read-only. Default: "viewer".
         * @enum {string}
         */
        role?: 'owner' | 'editor' | 'viewer';
      };
      quotas?: {
        compute?: {
          requests?: {
            /** @description Total CPU, such as 4 or 500m. */
            cpu?: number | string;
            /** @description Total memory, such as 8Gi. */
            memory?: number | string;
          };
          limits?: {
            /** @description Total CPU, such as 4 or 500m. */
            cpu?: number | string;
            /** @description Total memory, such as 8Gi. */
            memory?: number | string;
          };
        };
        objects?: {
          /** @description Maximum ConfigMaps. */
          configmaps?: number;
          /** @description Maximum Secrets. */
          secrets?: number;
          /** @description Maximum PersistentVolumeClaims. */
          persistentvolumeclaims?: number;
        };
        arena?: {
          /** @description Maximum Arena jobs running at once. */
          maxConcurrentJobs?: number;
          /** @description Maximum Arena jobs started per day. */
          maxJobsPerDay?: number;
          /** @description Maximum workers of one Arena job. */
          maxWorkersPerJob?: number;
        };
        agents?: {
          /** @description Maximum AgentRuntimes. */
          maxAgentRuntimes?: number;
          /** @description Maximum replicas of one AgentRuntime. */
          maxReplicasPerAgent?: number;
        };
      };
      networkPolicy?: {
        /** @description Generate the NetworkPolicy workspace-{name}-isolation. Default: false. */
        isolate?: boolean;
        /** @description Allow egress to the internet (0.0.0.0/0 less private ranges). Default: true. */
        allowExternalAPIs?: boolean;
        /** @description Allow traffic with namespaces labeled paddock.dev/shared: "true". Default: true. */
        allowSharedNamespaces?: boolean;
        /** @description Also allow egress to 10.0.0.0/8, 172.16.0.0/12 and 192.168.0.0/16. Default: false. */
        allowPrivateNetworks?: boolean;
        /** @description Extra ingress sources. */
        allowFrom?: {
          peers?: {
            namespaceSelector?: {
              /** @description Namespaces with all these labels. */
              matchLabels?: {
                [key: string]: string;
              };
            };
            podSelector?: {
              /** @description Pods with all these labels. */
              matchLabels?: {
                [key: string]: string;
              };
            };
            ipBlock?: {
              /** @description An IPv4 or IPv6 CIDR. */
              cidr: string;
              /** @description CIDRs inside cidr to leave out. */
              except?: string[];
            };
          }[];
          /** @description All ports when omitted. */
          ports?: {
            /**
             * @description Default: "TCP".
             * @enum {string}
             */
            protocol?: 'TCP' | 'UDP' | 'SCTP';
            /** @description The port number. */
            port?: number;
          }[];
        }[];
        /** @description Extra egress destinations. */
        allowTo?: {
          peers?: {
            namespaceSelector?: {
              /** @description Namespaces with all these labels. */
              matchLabels?: {
                [key: string]: string;
              };
            };
            podSelector?: {
              /** @description Pods with all these labels. */
              matchLabels?: {
                [key: string]: string;
              };
            };
            ipBlock?: {
              /** @description An IPv4 or IPv6 CIDR. */
              cidr: string;
              /** @description CIDRs inside cidr to leave out. */
              except?: string[];
            };
          }[];
          /** @description All ports when omitted. */
          ports?: {
            /**
             * @description Default: "TCP".
             * @enum {string}
             */
            protocol?: 'TCP' | 'UDP' | 'SCTP';
            /** @description The port number. */
            port?: number;
          }[];
        }[];
      };
      costControls?: {
        /** @description Daily budget in USD, such as 25.00. */
        dailyBudget?: string;
        /** @description Monthly budget in USD. */
        monthlyBudget?: string;
        /**
         * @description warn: log warnings; pauseJobs: pause Arena jobs; block: block new API requests. Default: "warn".
         * @enum {string}
         */
        budgetExceededAction?: 'warn' | 'pauseJobs' | 'block';
        alertThresholds?: {
          /** @description Percent of a budget spent. */
          percent: number;
          /** @description Recipient addresses. */
          notify?: string[];
        }[];
      };
    };
    NoFields: Record<string, never>;
    OneRun: {
      run: components['schemas']['Run'];
    };
    Pod: {
      name: string;
      /** @example Running */
      phase: string;
      containers: string[];
      startedAt: string | null;
    };
    PromptPack: {
      name: string;
      description: string | null;
      systemPrompt: string;
      prompts: {
        name: string;
        content: string;
      }[];
      createdAt: string | null;
    };
    PromptPackSpec: {
      systemPrompt: string;
      description?: string | null;
      prompts?: {
        name: string;
        content: string;
      }[];
    };
    Readiness: {
      /** @enum {string} */
      status: 'ready' | 'not_ready' | 'draining';
      /**
       * @description Each readiness check and whether it passes
       * @example {
       *       "workspaces": true
       *     }
       */
      checks: {
        [key: string]: boolean;
      };
      /** @description Why each failing check fails, for the checks that say */
      reasons?: {
        [key: string]: string;
      };
    };
    /** @description A handler of a registry, as its discovery went */
    RegistryHandler: {
      name: string;
      type: 'http' | 'grpc' | 'mcp' | 'openapi';
      /** @description reached: it offered tools; failed: it could not be reached or offered none (see error); skipped: not run by the dashboard (mcp stdio). */
      state: 'reached' | 'failed' | 'skipped';
      error: string | null;
    };
    /** @description A tool of a registry as discovered just now */
    RegistryToolDetails: {
      handlerName: string;
      name: string;
      status: 'Available' | 'Unavailable' | 'Unknown';
      endpoint: string | null;
      error: string | null;
      description: string | null;
      inputSchema: {
        [key: string]: unknown;
      } | null;
      /** @description Whether the dashboard can call it (try it). */
      callable: boolean;
    };
    /**
     * @description The dashboard role, which decides what the user may do
     * @enum {unknown}
     */
    Role: 'viewer' | 'editor' | 'admin';
    /** @description A run of the agent loop: a task, its transcript and what it spent */
    Run: {
      id: string;
      /** @description The task as the model got it */
      task: string;
      /** @description The prompt of the PromptPack it was made from, with its variables */
      prompt?: {
        name: string;
        variables: {
          [key: string]: string;
        };
      };
      /** @description The user who started it */
      startedBy?: string;
      /** Format: date-time */
      createdAt: string;
      /** @description The number of its last transcript event */
      lastSeq: number;
      /** @description Tokens and cost so far */
      usage: {
        /** @description Input tokens */
        input: number;
        /** @description Output tokens */
        output: number;
        /** @description Their cost in USD */
        usd: number;
      };
      outcome?: components['schemas']['RunOutcome'];
    };
    /** @description One step of a run, numbered from 1 (`seq`, the event’s `id`) */
    RunEvent:
      | {
          /** @constant */
          type: 'task';
          seq: number;
          text: string;
        }
      | {
          /** @constant */
          type: 'text';
          seq: number;
          delta: string;
        }
      | {
          /** @constant */
          type: 'tool_call';
          seq: number;
          id: string;
          name: string;
          /** @description As scrubbed for the transcript */
          arguments: unknown;
        }
      | {
          /** @constant */
          type: 'tool_result';
          seq: number;
          id: string;
          /** @description As the model got it */
          text: string;
          isError: boolean;
          truncated: boolean;
        }
      | {
          /** @constant */
          type: 'usage';
          seq: number;
          input: number;
          output: number;
          usd: number;
        }
      | {
          /** @constant */
          type: 'outcome';
          seq: number;
          /** @enum {unknown} */
          status: 'completed' | 'failed' | 'cancelled' | 'limit' | 'blocked' | 'interrupted';
          reason?: string;
          code?: string;
        };
    RunList: {
      /** @description The runs the pod keeps, newest first */
      runs: components['schemas']['Run'][];
      running: string | null;
      /** @description Runs waiting, in order */
      queued: string[];
    };
    /** @description How a run ended */
    RunOutcome: {
      /**
       * @description `interrupted`: the pod restarted during the run; nothing resumes it
       * @enum {unknown}
       */
      status: 'completed' | 'failed' | 'cancelled' | 'limit' | 'blocked' | 'interrupted';
      /** @description Why it ended so */
      reason?: string;
      /** @description A failed model call’s code, e.g. `model_unauthorized` */
      code?: string;
    };
    StartedRun: {
      run: components['schemas']['Run'];
      /** @description Runs ahead of it (0: it started) */
      position: number;
    };
    /** @description A task: free text, or a prompt of the PromptPack with its variables */
    StartRun: {
      /** @description Free text */
      task?: string;
      prompt?: {
        /** @description A prompt of the agent’s PromptPack */
        name: string;
        /** @description A value for each `{{variable}}` of the prompt */
        variables?: {
          [key: string]: string;
        };
      };
    };
    Success: {
      /** @constant */
      success: true;
    };
    ToolCallResult: {
      tool: string;
      handlerName: string;
      /** @description What the tool answered (cut when very long). */
      text: string;
      /** @description The tool failed, could not be reached or ran out of time. */
      isError: boolean;
      /** @description How long the call took. */
      durationMs: number;
    };
    ToolRegistry: {
      name: string;
      spec: components['schemas']['ToolRegistrySpec'];
      phase: 'Pending' | 'Ready' | 'Degraded' | 'Failed';
      discoveredToolsCount: number;
      availableToolsCount: number;
      discoveredTools: {
        handlerName: string;
        name: string;
        /**
         * @description Available when the tool can be called.
         * @enum {string}
         */
        status: 'Available' | 'Unavailable' | 'Unknown';
        endpoint?: string;
        /** @description Why the tool is not available. */
        error?: string;
      }[];
      conditions: components['schemas']['Condition'][];
    };
    /** @description The ToolRegistry spec, as the cluster’s resource definition has it */
    ToolRegistrySpec: {
      handlers: {
        /** @description Unique in the registry. */
        name: string;
        /** @enum {string} */
        type: 'http' | 'grpc' | 'mcp' | 'openapi';
        /** @description Where an http or grpc handler is served. */
        endpoint?: {
          /** @description A direct URL; for grpc, host:port. */
          url?: string;
          serviceRef?: {
            name: string;
            /** @description Defaults to the ToolRegistry's namespace. */
            namespace?: string;
            /** @description The Service port. */
            port: number;
          };
        };
        /** @description Discover Services by label instead of naming one. */
        selector?: {
          /** @description Extra labels next to paddock.dev/tool: "true". */
          matchLabels?: {
            [key: string]: string;
          };
        };
        /** @description Per-call timeout, such as 30s. */
        timeout?: string;
        /** @description Retry attempts. */
        retries?: number;
        /** @description The tool an http or grpc handler exposes. */
        tool?: {
          /** @description The tool name shown to the model. */
          name: string;
          description: string;
          /** @description JSON Schema of the arguments. */
          inputSchema: {
            [key: string]: unknown;
          };
          /** @description JSON Schema of the result. */
          outputSchema?: {
            [key: string]: unknown;
          };
        };
        httpConfig?: {
          /** @default POST */
          method: string;
          /** @description Extra request headers. */
          headers?: {
            [key: string]: string;
          };
          /** @default application/json */
          contentType: string;
          /** @description Per-call timeout, such as 30s. */
          timeout?: string;
          /** @description Retry attempts. */
          retries?: number;
        };
        grpcConfig?: {
          /** @default false */
          tls: boolean;
          tlsCertPath?: string;
          tlsKeyPath?: string;
          tlsCAPath?: string;
          /** @default false */
          tlsInsecureSkipVerify: boolean;
        };
        mcpConfig?: {
          /** @enum {string} */
          transport: 'sse' | 'stdio';
          /** @description The SSE endpoint URL. */
          endpoint?: string;
          /** @description The command run as a subprocess for stdio. */
          command?: string;
          args?: string[];
          workDir?: string;
          /** @description Environment of the subprocess. */
          env?: {
            [key: string]: string;
          };
        };
        openAPIConfig?: {
          /** @description An OpenAPI v3 or Swagger v2 document; each operation becomes a tool. */
          specURL: string;
          /** @description Overrides the document's base URL. */
          baseURL?: string;
          /** @description Only these operation ids. */
          operationFilter?: string[];
          /** @description Extra request headers. */
          headers?: {
            [key: string]: string;
          };
          /** @enum {string} */
          authType?: 'bearer' | 'basic';
          /** @description The token or credentials. */
          authToken?: string;
        };
      }[];
    };
    /** @description The user object of the specification */
    User: {
      id: string;
      username: string;
      email?: string;
      displayName?: string;
      groups: string[];
      role: components['schemas']['Role'];
      /**
       * @description How this request was authenticated
       * @enum {unknown}
       */
      provider: 'anonymous' | 'proxy' | 'oauth' | 'builtin' | 'api-key';
    };
    UserPatch: {
      role?: components['schemas']['Role'] | null;
      groups?: string[];
      disabled?: boolean;
    };
    WorkspaceDetails: {
      name: string;
      displayName: string;
      description: string | null;
      environment: ('development' | 'staging' | 'production') | null;
      namespace: string;
      phase: 'Pending' | 'Ready' | 'Suspended' | 'Error';
      role: components['schemas']['WorkspaceRole'];
      createdAt: string | null;
      /** @description What the caller may do here: the client shows only these actions */
      permissions: {
        scaleAgents: boolean;
        createAgents: boolean;
        deleteAgents: boolean;
        modifyPrompts: boolean;
        modifyTools: boolean;
        viewFiles: boolean;
        useTerminal: boolean;
        useMcp: boolean;
        viewRuns: boolean;
        startRuns: boolean;
        manageMembers: boolean;
      };
      quotas: {
        compute?: {
          requests?: {
            /** @description Total CPU, such as 4 or 500m. */
            cpu?: number | string;
            /** @description Total memory, such as 8Gi. */
            memory?: number | string;
          };
          limits?: {
            /** @description Total CPU, such as 4 or 500m. */
            cpu?: number | string;
            /** @description Total memory, such as 8Gi. */
            memory?: number | string;
          };
        };
        objects?: {
          /** @description Maximum ConfigMaps. */
          configmaps?: number;
          /** @description Maximum Secrets. */
          secrets?: number;
          /** @description Maximum PersistentVolumeClaims. */
          persistentvolumeclaims?: number;
        };
        arena?: {
          /** @description Maximum Arena jobs running at once. */
          maxConcurrentJobs?: number;
          /** @description Maximum Arena jobs started per day. */
          maxJobsPerDay?: number;
          /** @description Maximum workers of one Arena job. */
          maxWorkersPerJob?: number;
        };
        agents?: {
          /** @description Maximum AgentRuntimes. */
          maxAgentRuntimes?: number;
          /** @description Maximum replicas of one AgentRuntime. */
          maxReplicasPerAgent?: number;
        };
      };
      networkPolicy: {
        isolate: boolean;
        allowExternalAPIs: boolean;
        allowSharedNamespaces: boolean;
        allowPrivateNetworks: boolean;
        status: {
          name?: string;
          /** @description Whether isolation is active. */
          enabled?: boolean;
          /** @description Ingress and egress rules together. */
          rulesCount?: number;
        } | null;
      };
      costControls: {
        /** @description Daily budget in USD, such as 25.00. */
        dailyBudget?: string;
        /** @description Monthly budget in USD. */
        monthlyBudget?: string;
        /**
         * @description warn: log warnings; pauseJobs: pause Arena jobs; block: block new API requests.
         * @default warn
         * @enum {string}
         */
        budgetExceededAction: 'warn' | 'pauseJobs' | 'block';
        alertThresholds?: {
          /** @description Percent of a budget spent. */
          percent: number;
          /** @description Recipient addresses. */
          notify?: string[];
        }[];
      } | null;
      costUsage: {
        /** @description Spent today. */
        dailySpend?: string;
        /** @description The daily budget. */
        dailyBudget?: string;
        /** @description Spent this month. */
        monthlySpend?: string;
        /** @description The monthly budget. */
        monthlyBudget?: string;
        /** Format: date-time */
        lastUpdated?: string;
      } | null;
      /** @description Members counted by role */
      members: {
        owners?: number;
        editors?: number;
        viewers?: number;
      };
      access: components['schemas']['Access'] | null;
      conditions: components['schemas']['Condition'][];
      observedGeneration: number | null;
    };
    /**
     * @description The role held in a workspace
     * @enum {unknown}
     */
    WorkspaceRole: 'owner' | 'editor' | 'viewer';
    WorkspaceSummary: {
      name: string;
      displayName: string;
      description: string | null;
      environment: ('development' | 'staging' | 'production') | null;
      namespace: string;
      phase: 'Pending' | 'Ready' | 'Suspended' | 'Error';
      role: components['schemas']['WorkspaceRole'];
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  getHealth: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Alive. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            status: 'ok';
          };
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  getReadiness: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Ready. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Readiness'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
      /** @description Not ready, or draining (shutting down). */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Readiness'];
        };
      };
    };
  };
  getMetrics: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The metrics. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain; version=0.0.4': string;
        };
      };
      /**
       * @description Unauthorized (`unauthorized`).
       *
       *     - `unauthorized`: No valid credential: none in oauth or builtin mode (or a session that ended), no user header from a trusted peer in proxy mode, or an API key or bearer token that is malformed, invalid, revoked or expired (a failed credential never falls back to another identity).
       */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unauthorized';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: Proxy mode: the user is not registered (SVC_AUTH_PROXY_AUTO_SIGNUP=false) or is disabled.
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  getAuthConfig: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The configuration. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AuthConfig'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  getMe: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The user. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            user: components['schemas']['User'];
          };
        };
      };
      /**
       * @description Unauthorized (`unauthorized`).
       *
       *     - `unauthorized`: No valid credential: none in oauth or builtin mode (or a session that ended), no user header from a trusted peer in proxy mode, or an API key or bearer token that is malformed, invalid, revoked or expired (a failed credential never falls back to another identity).
       */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unauthorized';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: Proxy mode: the user is not registered (SVC_AUTH_PROXY_AUTO_SIGNUP=false) or is disabled.
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  logout: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Signed out. */
      200: {
        headers: {
          /** @description Clears the session cookie. */
          'Set-Cookie'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            success: true;
            /**
             * Format: uri
             * @description The provider’s end-session URL (oauth mode)
             */
            redirectUrl?: string;
          };
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: Cross-site request refused: without a credential header, a request carrying the session cookie must come from the dashboard’s origin (Origin, else Referer).
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  logoutEverywhere: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Every session of the caller has ended. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Success'];
        };
      };
      /**
       * @description Unauthorized (`unauthorized`).
       *
       *     - `unauthorized`: No valid credential: none in oauth or builtin mode (or a session that ended), no user header from a trusted peer in proxy mode, or an API key or bearer token that is malformed, invalid, revoked or expired (a failed credential never falls back to another identity).
       */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unauthorized';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: Anonymous mode: there are no sessions to end.
       *     - `forbidden`: Proxy mode: the user is not registered (SVC_AUTH_PROXY_AUTO_SIGNUP=false) or is disabled.
       *     - `forbidden`: Cross-site request refused: without a credential header, a request carrying the session cookie must come from the dashboard’s origin (Origin, else Referer).
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  builtinChangePassword: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ChangePassword'];
      };
    };
    responses: {
      /** @description Changed; this session goes on. */
      200: {
        headers: {
          /** @description The session cookie (`svc_session`, or SVC_SESSION_COOKIE_NAME; split into `.1`, `.2` chunks when large): encrypted, `HttpOnly; Secure; SameSite=Lax; Path=/`. */
          'Set-Cookie'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Success'];
        };
      };
      /**
       * @description Bad request (`invalid_request`, `password_too_short`).
       *
       *     - `invalid_request`: Not builtin mode; the caller is not a user of the built-in store; or a field is not acceptable (the message names it).
       *     - `invalid_request`: The body is not a JSON object, or does not match its schema.
       *     - `password_too_short`: The new password is shorter than SVC_BUILTIN_MIN_PASSWORD_LENGTH.
       */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'invalid_request' | 'password_too_short';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unauthorized (`invalid_credentials`, `unauthorized`).
       *
       *     - `invalid_credentials`: The current password is wrong.
       *     - `unauthorized`: No valid credential: none in oauth or builtin mode (or a session that ended), no user header from a trusted peer in proxy mode, or an API key or bearer token that is malformed, invalid, revoked or expired (a failed credential never falls back to another identity).
       */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'invalid_credentials' | 'unauthorized';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: Proxy mode: the user is not registered (SVC_AUTH_PROXY_AUTO_SIGNUP=false) or is disabled.
       *     - `forbidden`: Cross-site request refused: without a credential header, a request carrying the session cookie must come from the dashboard’s origin (Origin, else Referer).
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Payload too large (`payload_too_large`).
       *
       *     - `payload_too_large`: The body is over 64 KiB.
       */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'payload_too_large';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unsupported media type (`unsupported_media_type`).
       *
       *     - `unsupported_media_type`: The body is not `application/json`.
       */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unsupported_media_type';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Locked (`account_locked`).
       *
       *     - `account_locked`: Too many wrong passwords for this account from this address: try again later.
       */
      423: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'account_locked';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Too many requests (`rate_limited`).
       *
       *     - `rate_limited`: The password hashing queue is full: wait the seconds of `Retry-After`.
       */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'rate_limited';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  startOAuthLogin: {
    parameters: {
      query?: {
        /** @description Where to go after signing in: a path on the dashboard (anything else becomes `/`). */
        returnTo?: string | string[];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description To the provider’s authorization endpoint. */
      302: {
        headers: {
          /** @description Where the browser goes next. */
          Location?: string;
          /** @description The session cookie (`svc_session`, or SVC_SESSION_COOKIE_NAME; split into `.1`, `.2` chunks when large): encrypted, `HttpOnly; Secure; SameSite=Lax; Path=/`. */
          'Set-Cookie'?: string;
          [name: string]: unknown;
        };
        content?: never;
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  startOAuthLoginForm: {
    parameters: {
      query?: {
        /** @description Where to go after signing in: a path on the dashboard (anything else becomes `/`). */
        returnTo?: string | string[];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description To the provider’s authorization endpoint. */
      303: {
        headers: {
          /** @description Where the browser goes next. */
          Location?: string;
          /** @description The session cookie (`svc_session`, or SVC_SESSION_COOKIE_NAME; split into `.1`, `.2` chunks when large): encrypted, `HttpOnly; Secure; SameSite=Lax; Path=/`. */
          'Set-Cookie'?: string;
          [name: string]: unknown;
        };
        content?: never;
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: Cross-site request refused: without a credential header, a request carrying the session cookie must come from the dashboard’s origin (Origin, else Referer).
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  finishOAuthLogin: {
    parameters: {
      query?: {
        /** @description The authorization code (missing: `no_code`). */
        code?: string | string[];
        /** @description The state sent with the sign-in (mismatch: `invalid_state`). */
        state?: string | string[];
        /** @description An error the provider reports instead of a code: `access_denied` stays `access_denied`, any other becomes `callback_failed`. */
        error?: string | string[];
        /** @description The provider’s explanation of `error`, logged. */
        error_description?: string | string[];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Signed in: to the `returnTo` of the sign-in (default `/`), with the session cookie. Failed: to `/login?error=<code>`, the cookie cleared. */
      302: {
        headers: {
          /** @description Where the browser goes next. */
          Location?: string;
          /** @description The session cookie (`svc_session`, or SVC_SESSION_COOKIE_NAME; split into `.1`, `.2` chunks when large): encrypted, `HttpOnly; Secure; SameSite=Lax; Path=/`. */
          'Set-Cookie'?: string;
          [name: string]: unknown;
        };
        content?: never;
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  refreshOAuthSession: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Renewed. */
      200: {
        headers: {
          /** @description The session cookie (`svc_session`, or SVC_SESSION_COOKIE_NAME; split into `.1`, `.2` chunks when large): encrypted, `HttpOnly; Secure; SameSite=Lax; Path=/`. */
          'Set-Cookie'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            success: true;
            expiresAt: number | null;
          };
        };
      };
      /**
       * @description Bad request (`invalid_request`).
       *
       *     - `invalid_request`: The request has no session with a refresh token (authenticated otherwise, or the provider gave none).
       */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'invalid_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unauthorized (`unauthorized`).
       *
       *     - `unauthorized`: The provider refused to renew the session: sign in again.
       *     - `unauthorized`: No valid credential: none in oauth or builtin mode (or a session that ended), no user header from a trusted peer in proxy mode, or an API key or bearer token that is malformed, invalid, revoked or expired (a failed credential never falls back to another identity).
       */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unauthorized';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: Proxy mode: the user is not registered (SVC_AUTH_PROXY_AUTO_SIGNUP=false) or is disabled.
       *     - `forbidden`: Cross-site request refused: without a credential header, a request carrying the session cookie must come from the dashboard’s origin (Origin, else Referer).
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  builtinLogin: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['BuiltinLogin'];
      };
    };
    responses: {
      /** @description Signed in. */
      200: {
        headers: {
          /** @description The session cookie (`svc_session`, or SVC_SESSION_COOKIE_NAME; split into `.1`, `.2` chunks when large): encrypted, `HttpOnly; Secure; SameSite=Lax; Path=/`. */
          'Set-Cookie'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            success: true;
            user: components['schemas']['LoginUser'];
          };
        };
      };
      /**
       * @description Bad request (`invalid_request`).
       *
       *     - `invalid_request`: username or password is missing or not a string.
       *     - `invalid_request`: The body is not a JSON object, or does not match its schema.
       */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'invalid_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unauthorized (`invalid_credentials`).
       *
       *     - `invalid_credentials`: Wrong username or password.
       */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'invalid_credentials';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`email_not_verified`, `forbidden`).
       *
       *     - `email_not_verified`: SVC_BUILTIN_VERIFY_EMAIL is on and the address is not confirmed yet.
       *     - `forbidden`: The account is disabled.
       *     - `forbidden`: Cross-site request refused: without a credential header, a request carrying the session cookie must come from the dashboard’s origin (Origin, else Referer).
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'email_not_verified' | 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Payload too large (`payload_too_large`).
       *
       *     - `payload_too_large`: The body is over 64 KiB.
       */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'payload_too_large';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unsupported media type (`unsupported_media_type`).
       *
       *     - `unsupported_media_type`: The body is not `application/json`.
       */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unsupported_media_type';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Locked (`account_locked`).
       *
       *     - `account_locked`: Too many failed sign-ins for this account from this address: try again later.
       */
      423: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'account_locked';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Too many requests (`rate_limited`).
       *
       *     - `rate_limited`: This address sent too many requests to this endpoint, or the password hashing queue is full: wait the seconds of `Retry-After`.
       */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'rate_limited';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  builtinSignup: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['BuiltinSignup'];
      };
    };
    responses: {
      /** @description Created. */
      201: {
        headers: {
          /** @description The session cookie (`svc_session`, or SVC_SESSION_COOKIE_NAME; split into `.1`, `.2` chunks when large): encrypted, `HttpOnly; Secure; SameSite=Lax; Path=/`. */
          'Set-Cookie'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            success: true;
            user: components['schemas']['LoginUser'];
            /** @description The address must be confirmed before signing in (no session then) */
            verificationRequired: boolean;
          };
        };
      };
      /**
       * @description Bad request (`invalid_request`, `password_too_short`).
       *
       *     - `invalid_request`: A field is missing or not acceptable (the message names it).
       *     - `invalid_request`: The body is not a JSON object, or does not match its schema.
       *     - `password_too_short`: The password is shorter than SVC_BUILTIN_MIN_PASSWORD_LENGTH.
       */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'invalid_request' | 'password_too_short';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`signup_disabled`, `forbidden`).
       *
       *     - `signup_disabled`: Public sign-up is disabled (SVC_BUILTIN_ALLOW_SIGNUP).
       *     - `forbidden`: Cross-site request refused: without a credential header, a request carrying the session cookie must come from the dashboard’s origin (Origin, else Referer).
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'signup_disabled' | 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Conflict (`email_exists`, `username_exists`).
       *
       *     - `email_exists`: The e-mail address is already registered.
       *     - `username_exists`: The username is taken.
       */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'email_exists' | 'username_exists';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Payload too large (`payload_too_large`).
       *
       *     - `payload_too_large`: The body is over 64 KiB.
       */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'payload_too_large';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unsupported media type (`unsupported_media_type`).
       *
       *     - `unsupported_media_type`: The body is not `application/json`.
       */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unsupported_media_type';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Too many requests (`rate_limited`).
       *
       *     - `rate_limited`: This address sent too many requests to this endpoint, or the password hashing queue is full: wait the seconds of `Retry-After`.
       */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'rate_limited';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  builtinForgotPassword: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['EmailOnly'];
      };
    };
    responses: {
      /** @description Done. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Success'];
        };
      };
      /**
       * @description Bad request (`invalid_request`).
       *
       *     - `invalid_request`: email is not an e-mail address.
       *     - `invalid_request`: The body is not a JSON object, or does not match its schema.
       */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'invalid_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: Cross-site request refused: without a credential header, a request carrying the session cookie must come from the dashboard’s origin (Origin, else Referer).
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Payload too large (`payload_too_large`).
       *
       *     - `payload_too_large`: The body is over 64 KiB.
       */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'payload_too_large';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unsupported media type (`unsupported_media_type`).
       *
       *     - `unsupported_media_type`: The body is not `application/json`.
       */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unsupported_media_type';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Too many requests (`rate_limited`).
       *
       *     - `rate_limited`: This address sent too many requests to this endpoint, or the password hashing queue is full: wait the seconds of `Retry-After`.
       */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'rate_limited';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  builtinResetPassword: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description The token of the mailed link, a string */
          token?: unknown;
          /** @description At most 1024 characters */
          password: string;
        };
      };
    };
    responses: {
      /** @description Done. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Success'];
        };
      };
      /**
       * @description Bad request (`password_too_short`, `invalid_request`, `invalid_token`).
       *
       *     - `password_too_short`: The password is shorter than SVC_BUILTIN_MIN_PASSWORD_LENGTH.
       *     - `invalid_request`: password is not a string, or too long.
       *     - `invalid_request`: The body is not a JSON object, or does not match its schema.
       *     - `invalid_token`: The token of a mailed link is unknown, used or expired.
       */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'password_too_short' | 'invalid_request' | 'invalid_token';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: Cross-site request refused: without a credential header, a request carrying the session cookie must come from the dashboard’s origin (Origin, else Referer).
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Payload too large (`payload_too_large`).
       *
       *     - `payload_too_large`: The body is over 64 KiB.
       */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'payload_too_large';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unsupported media type (`unsupported_media_type`).
       *
       *     - `unsupported_media_type`: The body is not `application/json`.
       */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unsupported_media_type';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Too many requests (`rate_limited`).
       *
       *     - `rate_limited`: This address sent too many requests to this endpoint, or the password hashing queue is full: wait the seconds of `Retry-After`.
       */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'rate_limited';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  builtinVerifyEmail: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description The token of the mailed link, a string */
          token?: unknown;
        };
      };
    };
    responses: {
      /** @description Done. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Success'];
        };
      };
      /**
       * @description Bad request (`invalid_token`, `invalid_request`).
       *
       *     - `invalid_token`: The token of a mailed link is unknown, used or expired.
       *     - `invalid_request`: The body is not a JSON object, or does not match its schema.
       */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'invalid_token' | 'invalid_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: Cross-site request refused: without a credential header, a request carrying the session cookie must come from the dashboard’s origin (Origin, else Referer).
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Payload too large (`payload_too_large`).
       *
       *     - `payload_too_large`: The body is over 64 KiB.
       */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'payload_too_large';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unsupported media type (`unsupported_media_type`).
       *
       *     - `unsupported_media_type`: The body is not `application/json`.
       */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unsupported_media_type';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Too many requests (`rate_limited`).
       *
       *     - `rate_limited`: This address sent too many requests to this endpoint, or the password hashing queue is full: wait the seconds of `Retry-After`.
       */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'rate_limited';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  builtinResendVerification: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['EmailOnly'];
      };
    };
    responses: {
      /** @description Done. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Success'];
        };
      };
      /**
       * @description Bad request (`invalid_request`).
       *
       *     - `invalid_request`: email is not an e-mail address.
       *     - `invalid_request`: The body is not a JSON object, or does not match its schema.
       */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'invalid_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: Cross-site request refused: without a credential header, a request carrying the session cookie must come from the dashboard’s origin (Origin, else Referer).
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Payload too large (`payload_too_large`).
       *
       *     - `payload_too_large`: The body is over 64 KiB.
       */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'payload_too_large';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unsupported media type (`unsupported_media_type`).
       *
       *     - `unsupported_media_type`: The body is not `application/json`.
       */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unsupported_media_type';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Too many requests (`rate_limited`).
       *
       *     - `rate_limited`: This address sent too many requests to this endpoint, or the password hashing queue is full: wait the seconds of `Retry-After`.
       */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'rate_limited';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  listOwnApiKeys: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The keys. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            keys: components['schemas']['ApiKey'][];
          };
        };
      };
      /**
       * @description Unauthorized (`unauthorized`).
       *
       *     - `unauthorized`: No valid credential: none in oauth or builtin mode (or a session that ended), no user header from a trusted peer in proxy mode, or an API key or bearer token that is malformed, invalid, revoked or expired (a failed credential never falls back to another identity).
       */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unauthorized';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: The anonymous user owns no keys: sign in.
       *     - `forbidden`: Proxy mode: the user is not registered (SVC_AUTH_PROXY_AUTO_SIGNUP=false) or is disabled.
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  createApiKey: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['NewApiKey'];
      };
    };
    responses: {
      /** @description Created. */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @description The key, shown only here */
            key: string;
            apiKey: components['schemas']['ApiKey'];
          };
        };
      };
      /**
       * @description Bad request (`invalid_request`).
       *
       *     - `invalid_request`: name or expiresInDays is not acceptable.
       *     - `invalid_request`: The body is not a JSON object, or does not match its schema.
       */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'invalid_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unauthorized (`unauthorized`).
       *
       *     - `unauthorized`: No valid credential: none in oauth or builtin mode (or a session that ended), no user header from a trusted peer in proxy mode, or an API key or bearer token that is malformed, invalid, revoked or expired (a failed credential never falls back to another identity).
       */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unauthorized';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: The anonymous user owns no keys; an API key cannot create keys (sign in); or API keys are disabled (SVC_AUTH_API_KEYS_ENABLED=false).
       *     - `forbidden`: Proxy mode: the user is not registered (SVC_AUTH_PROXY_AUTO_SIGNUP=false) or is disabled.
       *     - `forbidden`: Cross-site request refused: without a credential header, a request carrying the session cookie must come from the dashboard’s origin (Origin, else Referer).
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Conflict (`api_key_limit_reached`).
       *
       *     - `api_key_limit_reached`: The user has SVC_AUTH_API_KEYS_MAX_PER_USER keys already.
       */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'api_key_limit_reached';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Payload too large (`payload_too_large`).
       *
       *     - `payload_too_large`: The body is over 64 KiB.
       */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'payload_too_large';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unsupported media type (`unsupported_media_type`).
       *
       *     - `unsupported_media_type`: The body is not `application/json`.
       */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unsupported_media_type';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  revokeOwnApiKey: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The key’s `id`. */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Done. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Success'];
        };
      };
      /**
       * @description Unauthorized (`unauthorized`).
       *
       *     - `unauthorized`: No valid credential: none in oauth or builtin mode (or a session that ended), no user header from a trusted peer in proxy mode, or an API key or bearer token that is malformed, invalid, revoked or expired (a failed credential never falls back to another identity).
       */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unauthorized';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: The anonymous user owns no keys.
       *     - `forbidden`: Proxy mode: the user is not registered (SVC_AUTH_PROXY_AUTO_SIGNUP=false) or is disabled.
       *     - `forbidden`: Cross-site request refused: without a credential header, a request carrying the session cookie must come from the dashboard’s origin (Origin, else Referer).
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Not found (`not_found`).
       *
       *     - `not_found`: No such key of the caller (or it is revoked already).
       */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'not_found';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  listAllApiKeys: {
    parameters: {
      query?: {
        /** @description Items per page (0 counts as 1). */
        limit?: number;
        /** @description Items to skip. */
        offset?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The keys. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            keys: components['schemas']['ApiKey'][];
          };
        };
      };
      /**
       * @description Bad request (`invalid_request`).
       *
       *     - `invalid_request`: limit or offset is not a whole number in range.
       */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'invalid_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unauthorized (`unauthorized`).
       *
       *     - `unauthorized`: No valid credential: none in oauth or builtin mode (or a session that ended), no user header from a trusted peer in proxy mode, or an API key or bearer token that is malformed, invalid, revoked or expired (a failed credential never falls back to another identity).
       */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unauthorized';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: Only admins manage every user’s API keys.
       *     - `forbidden`: Proxy mode: the user is not registered (SVC_AUTH_PROXY_AUTO_SIGNUP=false) or is disabled.
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  revokeApiKey: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The key’s `id`. */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Done. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Success'];
        };
      };
      /**
       * @description Unauthorized (`unauthorized`).
       *
       *     - `unauthorized`: No valid credential: none in oauth or builtin mode (or a session that ended), no user header from a trusted peer in proxy mode, or an API key or bearer token that is malformed, invalid, revoked or expired (a failed credential never falls back to another identity).
       */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unauthorized';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: Only admins manage every user’s API keys.
       *     - `forbidden`: Proxy mode: the user is not registered (SVC_AUTH_PROXY_AUTO_SIGNUP=false) or is disabled.
       *     - `forbidden`: Cross-site request refused: without a credential header, a request carrying the session cookie must come from the dashboard’s origin (Origin, else Referer).
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Not found (`not_found`).
       *
       *     - `not_found`: No such key (or it is revoked already).
       */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'not_found';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  listUsers: {
    parameters: {
      query?: {
        /** @description Items per page (0 counts as 1). */
        limit?: number;
        /** @description Items to skip. */
        offset?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page of users. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            users: components['schemas']['AdminUser'][];
            total: number;
            limit: number;
            offset: number;
          };
        };
      };
      /**
       * @description Bad request (`invalid_request`).
       *
       *     - `invalid_request`: limit or offset is not a whole number in range.
       */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'invalid_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unauthorized (`unauthorized`).
       *
       *     - `unauthorized`: No valid credential: none in oauth or builtin mode (or a session that ended), no user header from a trusted peer in proxy mode, or an API key or bearer token that is malformed, invalid, revoked or expired (a failed credential never falls back to another identity).
       */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unauthorized';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: Only admins see the users.
       *     - `forbidden`: Proxy mode: the user is not registered (SVC_AUTH_PROXY_AUTO_SIGNUP=false) or is disabled.
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  createUser: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['NewUser'];
      };
    };
    responses: {
      /** @description Created. */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CreatedUser'];
        };
      };
      /**
       * @description Bad request (`invalid_request`).
       *
       *     - `invalid_request`: Not builtin mode, or a field is missing or not acceptable (the message names it).
       *     - `invalid_request`: The body is not a JSON object, or does not match its schema.
       */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'invalid_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unauthorized (`unauthorized`).
       *
       *     - `unauthorized`: No valid credential: none in oauth or builtin mode (or a session that ended), no user header from a trusted peer in proxy mode, or an API key or bearer token that is malformed, invalid, revoked or expired (a failed credential never falls back to another identity).
       */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unauthorized';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: Only admins create users and send reset mails.
       *     - `forbidden`: Proxy mode: the user is not registered (SVC_AUTH_PROXY_AUTO_SIGNUP=false) or is disabled.
       *     - `forbidden`: Cross-site request refused: without a credential header, a request carrying the session cookie must come from the dashboard’s origin (Origin, else Referer).
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Conflict (`email_exists`, `username_exists`).
       *
       *     - `email_exists`: The e-mail address is already registered.
       *     - `username_exists`: The username is taken.
       */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'email_exists' | 'username_exists';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Payload too large (`payload_too_large`).
       *
       *     - `payload_too_large`: The body is over 64 KiB.
       */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'payload_too_large';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unsupported media type (`unsupported_media_type`).
       *
       *     - `unsupported_media_type`: The body is not `application/json`.
       */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unsupported_media_type';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Too many requests (`rate_limited`).
       *
       *     - `rate_limited`: The password hashing queue is full: wait the seconds of `Retry-After`.
       */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'rate_limited';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  updateUser: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The user’s `id`. */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UserPatch'];
      };
    };
    responses: {
      /** @description The user as changed. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            user: components['schemas']['AdminUser'];
          };
        };
      };
      /**
       * @description Bad request (`invalid_request`).
       *
       *     - `invalid_request`: An unknown or malformed field; the user is not of the built-in store; or the change would disable the caller or take away their own admin role.
       *     - `invalid_request`: The body is not a JSON object, or does not match its schema.
       */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'invalid_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unauthorized (`unauthorized`).
       *
       *     - `unauthorized`: No valid credential: none in oauth or builtin mode (or a session that ended), no user header from a trusted peer in proxy mode, or an API key or bearer token that is malformed, invalid, revoked or expired (a failed credential never falls back to another identity).
       */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unauthorized';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: Only admins see the users.
       *     - `forbidden`: Proxy mode: the user is not registered (SVC_AUTH_PROXY_AUTO_SIGNUP=false) or is disabled.
       *     - `forbidden`: Cross-site request refused: without a credential header, a request carrying the session cookie must come from the dashboard’s origin (Origin, else Referer).
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Not found (`not_found`).
       *
       *     - `not_found`: No such user.
       */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'not_found';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Payload too large (`payload_too_large`).
       *
       *     - `payload_too_large`: The body is over 64 KiB.
       */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'payload_too_large';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unsupported media type (`unsupported_media_type`).
       *
       *     - `unsupported_media_type`: The body is not `application/json`.
       */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unsupported_media_type';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  sendUserResetMail: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The user’s `id`. */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['NoFields'];
      };
    };
    responses: {
      /** @description The mail went out. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Success'];
        };
      };
      /**
       * @description Bad request (`invalid_request`).
       *
       *     - `invalid_request`: Not builtin mode; the user is not of the built-in store, is disabled or has no e-mail address.
       *     - `invalid_request`: The body is not a JSON object, or does not match its schema.
       */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'invalid_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unauthorized (`unauthorized`).
       *
       *     - `unauthorized`: No valid credential: none in oauth or builtin mode (or a session that ended), no user header from a trusted peer in proxy mode, or an API key or bearer token that is malformed, invalid, revoked or expired (a failed credential never falls back to another identity).
       */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unauthorized';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: Only admins create users and send reset mails.
       *     - `forbidden`: Proxy mode: the user is not registered (SVC_AUTH_PROXY_AUTO_SIGNUP=false) or is disabled.
       *     - `forbidden`: Cross-site request refused: without a credential header, a request carrying the session cookie must come from the dashboard’s origin (Origin, else Referer).
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Not found (`not_found`).
       *
       *     - `not_found`: No such user.
       */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'not_found';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Conflict (`conflict`).
       *
       *     - `conflict`: No mail can be sent: SVC_SMTP_URL is not set.
       */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'conflict';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Payload too large (`payload_too_large`).
       *
       *     - `payload_too_large`: The body is over 64 KiB.
       */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'payload_too_large';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unsupported media type (`unsupported_media_type`).
       *
       *     - `unsupported_media_type`: The body is not `application/json`.
       */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unsupported_media_type';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  listWorkspaces: {
    parameters: {
      query?: {
        /** @description Items per page (0 counts as 1). */
        limit?: number;
        /** @description Items to skip. */
        offset?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page of workspaces. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            workspaces: components['schemas']['WorkspaceSummary'][];
            total: number;
            limit: number;
            offset: number;
          };
        };
      };
      /**
       * @description Bad request (`invalid_request`).
       *
       *     - `invalid_request`: limit or offset is not a whole number in range.
       */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'invalid_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unauthorized (`unauthorized`).
       *
       *     - `unauthorized`: No valid credential: none in oauth or builtin mode (or a session that ended), no user header from a trusted peer in proxy mode, or an API key or bearer token that is malformed, invalid, revoked or expired (a failed credential never falls back to another identity).
       */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unauthorized';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: The dashboard role may not view workspaces.
       *     - `forbidden`: Proxy mode: the user is not registered (SVC_AUTH_PROXY_AUTO_SIGNUP=false) or is disabled.
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unavailable (`unavailable`).
       *
       *     - `unavailable`: No cluster is configured.
       */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unavailable';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  createWorkspace: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['NewWorkspace'];
      };
    };
    responses: {
      /** @description Created. */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            workspace: components['schemas']['WorkspaceDetails'] | null;
          };
        };
      };
      /**
       * @description Bad request (`invalid_request`).
       *
       *     - `invalid_request`: A missing, unknown or malformed field, named by its path (body.namespace.name); no owner named by an anonymous creator; or the cluster found the Workspace invalid (the message says why).
       *     - `invalid_request`: The body is not a JSON object, or does not match its schema.
       */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'invalid_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unauthorized (`unauthorized`).
       *
       *     - `unauthorized`: No valid credential: none in oauth or builtin mode (or a session that ended), no user header from a trusted peer in proxy mode, or an API key or bearer token that is malformed, invalid, revoked or expired (a failed credential never falls back to another identity).
       */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unauthorized';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: The dashboard role is not admin; or the cluster refused the dashboard’s identity.
       *     - `forbidden`: Proxy mode: the user is not registered (SVC_AUTH_PROXY_AUTO_SIGNUP=false) or is disabled.
       *     - `forbidden`: Cross-site request refused: without a credential header, a request carrying the session cookie must come from the dashboard’s origin (Origin, else Referer).
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Conflict (`already_exists`).
       *
       *     - `already_exists`: A Workspace of that name exists, or another workspace has that namespace.
       */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'already_exists';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Payload too large (`payload_too_large`).
       *
       *     - `payload_too_large`: The body is over 64 KiB.
       */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'payload_too_large';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unsupported media type (`unsupported_media_type`).
       *
       *     - `unsupported_media_type`: The body is not `application/json`.
       */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unsupported_media_type';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unavailable (`unavailable`).
       *
       *     - `unavailable`: No cluster is configured, or it could not be reached.
       */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unavailable';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  getWorkspace: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The workspace (the Workspace object’s name). */
        name: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The workspace. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            workspace: components['schemas']['WorkspaceDetails'];
          };
        };
      };
      /**
       * @description Unauthorized (`unauthorized`).
       *
       *     - `unauthorized`: No valid credential: none in oauth or builtin mode (or a session that ended), no user header from a trusted peer in proxy mode, or an API key or bearer token that is malformed, invalid, revoked or expired (a failed credential never falls back to another identity).
       */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unauthorized';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: The dashboard role may not view workspaces.
       *     - `forbidden`: Proxy mode: the user is not registered (SVC_AUTH_PROXY_AUTO_SIGNUP=false) or is disabled.
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Not found (`not_found`).
       *
       *     - `not_found`: No workspace of that name that the user holds a role in: one without a role answers as one that does not exist.
       */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'not_found';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unavailable (`unavailable`).
       *
       *     - `unavailable`: No cluster is configured.
       */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unavailable';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  listAgents: {
    parameters: {
      query?: {
        /** @description Items per page (0 counts as 1). */
        limit?: number;
        /** @description Items to skip. */
        offset?: number;
      };
      header?: never;
      path: {
        /** @description The workspace (the Workspace object’s name). */
        name: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page of agents. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            agents: components['schemas']['Agent'][];
            total: number;
            limit: number;
            offset: number;
          };
        };
      };
      /**
       * @description Bad request (`invalid_request`).
       *
       *     - `invalid_request`: limit or offset is not a whole number in range.
       *     - `invalid_request`: The cluster found the object invalid (the message says why).
       */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'invalid_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unauthorized (`unauthorized`).
       *
       *     - `unauthorized`: No valid credential: none in oauth or builtin mode (or a session that ended), no user header from a trusted peer in proxy mode, or an API key or bearer token that is malformed, invalid, revoked or expired (a failed credential never falls back to another identity).
       */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unauthorized';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: The dashboard role may not view workspaces.
       *     - `forbidden`: The cluster refused the workspace role’s ServiceAccount.
       *     - `forbidden`: Proxy mode: the user is not registered (SVC_AUTH_PROXY_AUTO_SIGNUP=false) or is disabled.
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Not found (`not_found`).
       *
       *     - `not_found`: No workspace of that name that the user holds a role in: one without a role answers as one that does not exist.
       */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'not_found';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unavailable (`unavailable`).
       *
       *     - `unavailable`: No cluster is configured.
       *     - `unavailable`: The workspace is not ready (its ServiceAccounts do not exist yet), no token could be minted for its role, or the cluster could not be reached.
       */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unavailable';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  createAgent: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The workspace (the Workspace object’s name). */
        name: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['NewAgent'];
      };
    };
    responses: {
      /** @description Created. */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            agent: components['schemas']['Agent'];
          };
        };
      };
      /**
       * @description Bad request (`invalid_request`).
       *
       *     - `invalid_request`: An unknown or malformed field.
       *     - `invalid_request`: The cluster found the object invalid (the message says why).
       *     - `invalid_request`: The body is not a JSON object, or does not match its schema.
       */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'invalid_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unauthorized (`unauthorized`).
       *
       *     - `unauthorized`: No valid credential: none in oauth or builtin mode (or a session that ended), no user header from a trusted peer in proxy mode, or an API key or bearer token that is malformed, invalid, revoked or expired (a failed credential never falls back to another identity).
       */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unauthorized';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: The cluster refused the workspace role’s ServiceAccount.
       *     - `forbidden`: The dashboard role or the workspace role does not allow creating agents (both must: editor or admin, and owner or editor).
       *     - `forbidden`: Proxy mode: the user is not registered (SVC_AUTH_PROXY_AUTO_SIGNUP=false) or is disabled.
       *     - `forbidden`: Cross-site request refused: without a credential header, a request carrying the session cookie must come from the dashboard’s origin (Origin, else Referer).
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Not found (`not_found`).
       *
       *     - `not_found`: No workspace of that name that the user holds a role in: one without a role answers as one that does not exist.
       */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'not_found';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Conflict (`already_exists`, `workspace_suspended`).
       *
       *     - `already_exists`: An agent of that name exists.
       *     - `workspace_suspended`: The workspace is Suspended while its budget is exceeded; creating agents waits until it is not.
       */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'already_exists' | 'workspace_suspended';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Payload too large (`payload_too_large`).
       *
       *     - `payload_too_large`: The body is over 64 KiB.
       */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'payload_too_large';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unsupported media type (`unsupported_media_type`).
       *
       *     - `unsupported_media_type`: The body is not `application/json`.
       */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unsupported_media_type';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unavailable (`unavailable`).
       *
       *     - `unavailable`: No cluster is configured.
       *     - `unavailable`: The workspace is not ready (its ServiceAccounts do not exist yet), no token could be minted for its role, or the cluster could not be reached.
       */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unavailable';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  getAgent: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The workspace (the Workspace object’s name). */
        name: string;
        /** @description The agent (AgentRuntime) name. */
        agentName: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The agent. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            agent: components['schemas']['AgentDetails'];
          };
        };
      };
      /**
       * @description Bad request (`invalid_request`).
       *
       *     - `invalid_request`: agent is not a Kubernetes object name.
       *     - `invalid_request`: The cluster found the object invalid (the message says why).
       */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'invalid_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unauthorized (`unauthorized`).
       *
       *     - `unauthorized`: No valid credential: none in oauth or builtin mode (or a session that ended), no user header from a trusted peer in proxy mode, or an API key or bearer token that is malformed, invalid, revoked or expired (a failed credential never falls back to another identity).
       */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unauthorized';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: The dashboard role may not view workspaces.
       *     - `forbidden`: The cluster refused the workspace role’s ServiceAccount.
       *     - `forbidden`: Proxy mode: the user is not registered (SVC_AUTH_PROXY_AUTO_SIGNUP=false) or is disabled.
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Not found (`not_found`).
       *
       *     - `not_found`: No such agent.
       *     - `not_found`: No workspace of that name that the user holds a role in: one without a role answers as one that does not exist.
       */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'not_found';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unavailable (`unavailable`).
       *
       *     - `unavailable`: No cluster is configured.
       *     - `unavailable`: The workspace is not ready (its ServiceAccounts do not exist yet), no token could be minted for its role, or the cluster could not be reached.
       */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unavailable';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  deleteAgent: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The workspace (the Workspace object’s name). */
        name: string;
        /** @description The agent (AgentRuntime) name. */
        agentName: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Done. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Success'];
        };
      };
      /**
       * @description Bad request (`invalid_request`).
       *
       *     - `invalid_request`: agent is not a Kubernetes object name.
       *     - `invalid_request`: The cluster found the object invalid (the message says why).
       */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'invalid_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unauthorized (`unauthorized`).
       *
       *     - `unauthorized`: No valid credential: none in oauth or builtin mode (or a session that ended), no user header from a trusted peer in proxy mode, or an API key or bearer token that is malformed, invalid, revoked or expired (a failed credential never falls back to another identity).
       */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unauthorized';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: The cluster refused the workspace role’s ServiceAccount.
       *     - `forbidden`: The dashboard role or the workspace role does not allow deleting agents (both must: editor or admin, and owner or editor).
       *     - `forbidden`: Proxy mode: the user is not registered (SVC_AUTH_PROXY_AUTO_SIGNUP=false) or is disabled.
       *     - `forbidden`: Cross-site request refused: without a credential header, a request carrying the session cookie must come from the dashboard’s origin (Origin, else Referer).
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Not found (`not_found`).
       *
       *     - `not_found`: No such agent.
       *     - `not_found`: No workspace of that name that the user holds a role in: one without a role answers as one that does not exist.
       */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'not_found';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Conflict (`workspace_suspended`).
       *
       *     - `workspace_suspended`: The workspace is Suspended while its budget is exceeded; deleting agents waits until it is not.
       */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'workspace_suspended';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unavailable (`unavailable`).
       *
       *     - `unavailable`: No cluster is configured.
       *     - `unavailable`: The workspace is not ready (its ServiceAccounts do not exist yet), no token could be minted for its role, or the cluster could not be reached.
       */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unavailable';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  scaleAgent: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The workspace (the Workspace object’s name). */
        name: string;
        /** @description The agent (AgentRuntime) name. */
        agentName: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          replicas: number;
        };
      };
    };
    responses: {
      /** @description The agent as changed. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            agent: components['schemas']['Agent'];
          };
        };
      };
      /**
       * @description Bad request (`invalid_request`).
       *
       *     - `invalid_request`: agent is not an object name, or replicas is not 0 to 1000.
       *     - `invalid_request`: The cluster found the object invalid (the message says why).
       *     - `invalid_request`: The body is not a JSON object, or does not match its schema.
       */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'invalid_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unauthorized (`unauthorized`).
       *
       *     - `unauthorized`: No valid credential: none in oauth or builtin mode (or a session that ended), no user header from a trusted peer in proxy mode, or an API key or bearer token that is malformed, invalid, revoked or expired (a failed credential never falls back to another identity).
       */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unauthorized';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: The cluster refused the workspace role’s ServiceAccount.
       *     - `forbidden`: The dashboard role or the workspace role does not allow scaling agents (both must: editor or admin, and owner or editor).
       *     - `forbidden`: Proxy mode: the user is not registered (SVC_AUTH_PROXY_AUTO_SIGNUP=false) or is disabled.
       *     - `forbidden`: Cross-site request refused: without a credential header, a request carrying the session cookie must come from the dashboard’s origin (Origin, else Referer).
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Not found (`not_found`).
       *
       *     - `not_found`: No such agent.
       *     - `not_found`: No workspace of that name that the user holds a role in: one without a role answers as one that does not exist.
       */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'not_found';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Conflict (`workspace_suspended`).
       *
       *     - `workspace_suspended`: The workspace is Suspended while its budget is exceeded; scaling agents waits until it is not.
       */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'workspace_suspended';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Payload too large (`payload_too_large`).
       *
       *     - `payload_too_large`: The body is over 64 KiB.
       */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'payload_too_large';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unsupported media type (`unsupported_media_type`).
       *
       *     - `unsupported_media_type`: The body is not `application/json`.
       */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unsupported_media_type';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unavailable (`unavailable`).
       *
       *     - `unavailable`: No cluster is configured.
       *     - `unavailable`: The workspace is not ready (its ServiceAccounts do not exist yet), no token could be minted for its role, or the cluster could not be reached.
       */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unavailable';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  listPromptPacks: {
    parameters: {
      query?: {
        /** @description Items per page (0 counts as 1). */
        limit?: number;
        /** @description Items to skip. */
        offset?: number;
      };
      header?: never;
      path: {
        /** @description The workspace (the Workspace object’s name). */
        name: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page of prompt packs. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            promptPacks: components['schemas']['PromptPack'][];
            total: number;
            limit: number;
            offset: number;
          };
        };
      };
      /**
       * @description Bad request (`invalid_request`).
       *
       *     - `invalid_request`: limit or offset is not a whole number in range.
       *     - `invalid_request`: The cluster found the object invalid (the message says why).
       */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'invalid_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unauthorized (`unauthorized`).
       *
       *     - `unauthorized`: No valid credential: none in oauth or builtin mode (or a session that ended), no user header from a trusted peer in proxy mode, or an API key or bearer token that is malformed, invalid, revoked or expired (a failed credential never falls back to another identity).
       */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unauthorized';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: The dashboard role may not view workspaces.
       *     - `forbidden`: The cluster refused the workspace role’s ServiceAccount.
       *     - `forbidden`: Proxy mode: the user is not registered (SVC_AUTH_PROXY_AUTO_SIGNUP=false) or is disabled.
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Not found (`not_found`).
       *
       *     - `not_found`: No workspace of that name that the user holds a role in: one without a role answers as one that does not exist.
       */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'not_found';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unavailable (`unavailable`).
       *
       *     - `unavailable`: No cluster is configured.
       *     - `unavailable`: The workspace is not ready (its ServiceAccounts do not exist yet), no token could be minted for its role, or the cluster could not be reached.
       */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unavailable';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  listToolRegistries: {
    parameters: {
      query?: {
        /** @description Items per page (0 counts as 1). */
        limit?: number;
        /** @description Items to skip. */
        offset?: number;
      };
      header?: never;
      path: {
        /** @description The workspace (the Workspace object’s name). */
        name: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page of tool registries. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            toolRegistries: components['schemas']['ToolRegistry'][];
            total: number;
            limit: number;
            offset: number;
          };
        };
      };
      /**
       * @description Bad request (`invalid_request`).
       *
       *     - `invalid_request`: limit or offset is not a whole number in range.
       *     - `invalid_request`: The cluster found the object invalid (the message says why).
       */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'invalid_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unauthorized (`unauthorized`).
       *
       *     - `unauthorized`: No valid credential: none in oauth or builtin mode (or a session that ended), no user header from a trusted peer in proxy mode, or an API key or bearer token that is malformed, invalid, revoked or expired (a failed credential never falls back to another identity).
       */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unauthorized';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: The dashboard role may not view workspaces.
       *     - `forbidden`: The cluster refused the workspace role’s ServiceAccount.
       *     - `forbidden`: Proxy mode: the user is not registered (SVC_AUTH_PROXY_AUTO_SIGNUP=false) or is disabled.
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Not found (`not_found`).
       *
       *     - `not_found`: No workspace of that name that the user holds a role in: one without a role answers as one that does not exist.
       */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'not_found';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unavailable (`unavailable`).
       *
       *     - `unavailable`: No cluster is configured.
       *     - `unavailable`: The workspace is not ready (its ServiceAccounts do not exist yet), no token could be minted for its role, or the cluster could not be reached.
       */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unavailable';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  getAgentLogs: {
    parameters: {
      query?: {
        /** @description Only the last lines, this many. */
        tailLines?: number;
        /** @description Only the lines of the last seconds, this many. */
        sinceSeconds?: number;
        /** @description Stream the log as it grows (`true`, `1` or empty; `false` or `0`). */
        follow?: boolean | '';
        /** @description Start each line with its RFC 3339 time. */
        timestamps?: boolean | '';
        /** @description The pod, one of the agent’s. */
        pod?: string;
        /** @description The container, one of the pod’s. */
        container?: string;
      };
      header?: never;
      path: {
        /** @description The workspace (the Workspace object’s name). */
        name: string;
        /** @description The agent (AgentRuntime) name. */
        agentName: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The log; streamed when `follow=true`. */
      200: {
        headers: {
          /** @description The pod read. */
          'x-pod'?: string;
          /** @description The container read. */
          'x-container'?: string;
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
      /**
       * @description Bad request (`invalid_request`).
       *
       *     - `invalid_request`: agent, pod or container is not an object name, or tailLines, sinceSeconds, follow or timestamps is malformed.
       *     - `invalid_request`: The cluster found the object invalid (the message says why).
       */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'invalid_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unauthorized (`unauthorized`).
       *
       *     - `unauthorized`: No valid credential: none in oauth or builtin mode (or a session that ended), no user header from a trusted peer in proxy mode, or an API key or bearer token that is malformed, invalid, revoked or expired (a failed credential never falls back to another identity).
       */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unauthorized';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: The dashboard role may not view logs.
       *     - `forbidden`: The cluster refused the workspace role’s ServiceAccount.
       *     - `forbidden`: Proxy mode: the user is not registered (SVC_AUTH_PROXY_AUTO_SIGNUP=false) or is disabled.
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Not found (`not_found`).
       *
       *     - `not_found`: The agent has no pods, no such pod, or the pod has no such container.
       *     - `not_found`: No workspace of that name that the user holds a role in: one without a role answers as one that does not exist.
       */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'not_found';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unavailable (`unavailable`).
       *
       *     - `unavailable`: No cluster is configured.
       *     - `unavailable`: The workspace is not ready (its ServiceAccounts do not exist yet), no token could be minted for its role, or the cluster could not be reached.
       */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unavailable';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  listAgentEvents: {
    parameters: {
      query?: {
        /** @description Items per page (0 counts as 1). */
        limit?: number;
        /** @description Items to skip. */
        offset?: number;
      };
      header?: never;
      path: {
        /** @description The workspace (the Workspace object’s name). */
        name: string;
        /** @description The agent (AgentRuntime) name. */
        agentName: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page of events. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            events: components['schemas']['Event'][];
            total: number;
            limit: number;
            offset: number;
          };
        };
      };
      /**
       * @description Bad request (`invalid_request`).
       *
       *     - `invalid_request`: agent is not an object name, or limit or offset is malformed.
       *     - `invalid_request`: The cluster found the object invalid (the message says why).
       */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'invalid_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unauthorized (`unauthorized`).
       *
       *     - `unauthorized`: No valid credential: none in oauth or builtin mode (or a session that ended), no user header from a trusted peer in proxy mode, or an API key or bearer token that is malformed, invalid, revoked or expired (a failed credential never falls back to another identity).
       */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unauthorized';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: The dashboard role may not view workspaces.
       *     - `forbidden`: The cluster refused the workspace role’s ServiceAccount.
       *     - `forbidden`: Proxy mode: the user is not registered (SVC_AUTH_PROXY_AUTO_SIGNUP=false) or is disabled.
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Not found (`not_found`).
       *
       *     - `not_found`: No workspace of that name that the user holds a role in: one without a role answers as one that does not exist.
       */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'not_found';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unavailable (`unavailable`).
       *
       *     - `unavailable`: No cluster is configured.
       *     - `unavailable`: The workspace is not ready (its ServiceAccounts do not exist yet), no token could be minted for its role, or the cluster could not be reached.
       */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unavailable';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  putPromptPack: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The workspace (the Workspace object’s name). */
        name: string;
        /** @description The prompt pack (PromptPack) name. */
        pack: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['PromptPackSpec'];
      };
    };
    responses: {
      /** @description Replaced. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            promptPack: components['schemas']['PromptPack'];
          };
        };
      };
      /** @description Created. */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            promptPack: components['schemas']['PromptPack'];
          };
        };
      };
      /**
       * @description Bad request (`invalid_request`).
       *
       *     - `invalid_request`: pack is not an object name, or an unknown or malformed field.
       *     - `invalid_request`: The cluster found the object invalid (the message says why).
       *     - `invalid_request`: The body is not a JSON object, or does not match its schema.
       */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'invalid_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unauthorized (`unauthorized`).
       *
       *     - `unauthorized`: No valid credential: none in oauth or builtin mode (or a session that ended), no user header from a trusted peer in proxy mode, or an API key or bearer token that is malformed, invalid, revoked or expired (a failed credential never falls back to another identity).
       */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unauthorized';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: The cluster refused the workspace role’s ServiceAccount.
       *     - `forbidden`: The dashboard role or the workspace role does not allow changing prompt packs (both must: editor or admin, and owner or editor).
       *     - `forbidden`: Proxy mode: the user is not registered (SVC_AUTH_PROXY_AUTO_SIGNUP=false) or is disabled.
       *     - `forbidden`: Cross-site request refused: without a credential header, a request carrying the session cookie must come from the dashboard’s origin (Origin, else Referer).
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Not found (`not_found`).
       *
       *     - `not_found`: No workspace of that name that the user holds a role in: one without a role answers as one that does not exist.
       */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'not_found';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Conflict (`conflict`, `already_exists`, `workspace_suspended`).
       *
       *     - `conflict`: The object changed meanwhile: read it again and retry.
       *     - `already_exists`: Another request created the pack meanwhile.
       *     - `workspace_suspended`: The workspace is Suspended while its budget is exceeded; changing prompt packs waits until it is not.
       */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'conflict' | 'already_exists' | 'workspace_suspended';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Payload too large (`payload_too_large`).
       *
       *     - `payload_too_large`: The body is over 64 KiB.
       */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'payload_too_large';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unsupported media type (`unsupported_media_type`).
       *
       *     - `unsupported_media_type`: The body is not `application/json`.
       */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unsupported_media_type';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unavailable (`unavailable`).
       *
       *     - `unavailable`: No cluster is configured.
       *     - `unavailable`: The workspace is not ready (its ServiceAccounts do not exist yet), no token could be minted for its role, or the cluster could not be reached.
       */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unavailable';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  deletePromptPack: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The workspace (the Workspace object’s name). */
        name: string;
        /** @description The prompt pack (PromptPack) name. */
        pack: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Done. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Success'];
        };
      };
      /**
       * @description Bad request (`invalid_request`).
       *
       *     - `invalid_request`: pack is not a Kubernetes object name.
       *     - `invalid_request`: The cluster found the object invalid (the message says why).
       */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'invalid_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unauthorized (`unauthorized`).
       *
       *     - `unauthorized`: No valid credential: none in oauth or builtin mode (or a session that ended), no user header from a trusted peer in proxy mode, or an API key or bearer token that is malformed, invalid, revoked or expired (a failed credential never falls back to another identity).
       */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unauthorized';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: The cluster refused the workspace role’s ServiceAccount.
       *     - `forbidden`: The dashboard role or the workspace role does not allow changing prompt packs (both must: editor or admin, and owner or editor).
       *     - `forbidden`: Proxy mode: the user is not registered (SVC_AUTH_PROXY_AUTO_SIGNUP=false) or is disabled.
       *     - `forbidden`: Cross-site request refused: without a credential header, a request carrying the session cookie must come from the dashboard’s origin (Origin, else Referer).
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Not found (`not_found`).
       *
       *     - `not_found`: No such prompt pack.
       *     - `not_found`: No workspace of that name that the user holds a role in: one without a role answers as one that does not exist.
       */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'not_found';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Conflict (`workspace_suspended`).
       *
       *     - `workspace_suspended`: The workspace is Suspended while its budget is exceeded; changing prompt packs waits until it is not.
       */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'workspace_suspended';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unavailable (`unavailable`).
       *
       *     - `unavailable`: No cluster is configured.
       *     - `unavailable`: The workspace is not ready (its ServiceAccounts do not exist yet), no token could be minted for its role, or the cluster could not be reached.
       */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unavailable';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  putToolRegistry: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The workspace (the Workspace object’s name). */
        name: string;
        /** @description The tool registry (ToolRegistry) name. */
        registry: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description The ToolRegistry spec; the cluster checks it against its resource definition */
          spec: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Replaced. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            toolRegistry: components['schemas']['ToolRegistry'];
          };
        };
      };
      /** @description Created. */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            toolRegistry: components['schemas']['ToolRegistry'];
          };
        };
      };
      /**
       * @description Bad request (`invalid_request`).
       *
       *     - `invalid_request`: registry is not an object name, spec is not an object, or an unknown field.
       *     - `invalid_request`: The cluster found the object invalid (the message says why).
       *     - `invalid_request`: The body is not a JSON object, or does not match its schema.
       */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'invalid_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unauthorized (`unauthorized`).
       *
       *     - `unauthorized`: No valid credential: none in oauth or builtin mode (or a session that ended), no user header from a trusted peer in proxy mode, or an API key or bearer token that is malformed, invalid, revoked or expired (a failed credential never falls back to another identity).
       */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unauthorized';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: The cluster refused the workspace role’s ServiceAccount.
       *     - `forbidden`: The dashboard role or the workspace role does not allow changing tools (both must: editor or admin, and owner or editor).
       *     - `forbidden`: Proxy mode: the user is not registered (SVC_AUTH_PROXY_AUTO_SIGNUP=false) or is disabled.
       *     - `forbidden`: Cross-site request refused: without a credential header, a request carrying the session cookie must come from the dashboard’s origin (Origin, else Referer).
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Not found (`not_found`).
       *
       *     - `not_found`: No workspace of that name that the user holds a role in: one without a role answers as one that does not exist.
       */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'not_found';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Conflict (`conflict`, `already_exists`, `workspace_suspended`).
       *
       *     - `conflict`: The object changed meanwhile: read it again and retry.
       *     - `already_exists`: Another request created the registry meanwhile.
       *     - `workspace_suspended`: The workspace is Suspended while its budget is exceeded; changing tools waits until it is not.
       */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'conflict' | 'already_exists' | 'workspace_suspended';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Payload too large (`payload_too_large`).
       *
       *     - `payload_too_large`: The body is over 64 KiB.
       */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'payload_too_large';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unsupported media type (`unsupported_media_type`).
       *
       *     - `unsupported_media_type`: The body is not `application/json`.
       */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unsupported_media_type';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unavailable (`unavailable`).
       *
       *     - `unavailable`: No cluster is configured.
       *     - `unavailable`: The workspace is not ready (its ServiceAccounts do not exist yet), no token could be minted for its role, or the cluster could not be reached.
       */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unavailable';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  deleteToolRegistry: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The workspace (the Workspace object’s name). */
        name: string;
        /** @description The tool registry (ToolRegistry) name. */
        registry: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Done. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Success'];
        };
      };
      /**
       * @description Bad request (`invalid_request`).
       *
       *     - `invalid_request`: registry is not a Kubernetes object name.
       *     - `invalid_request`: The cluster found the object invalid (the message says why).
       */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'invalid_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unauthorized (`unauthorized`).
       *
       *     - `unauthorized`: No valid credential: none in oauth or builtin mode (or a session that ended), no user header from a trusted peer in proxy mode, or an API key or bearer token that is malformed, invalid, revoked or expired (a failed credential never falls back to another identity).
       */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unauthorized';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: The cluster refused the workspace role’s ServiceAccount.
       *     - `forbidden`: The dashboard role or the workspace role does not allow changing tools (both must: editor or admin, and owner or editor).
       *     - `forbidden`: Proxy mode: the user is not registered (SVC_AUTH_PROXY_AUTO_SIGNUP=false) or is disabled.
       *     - `forbidden`: Cross-site request refused: without a credential header, a request carrying the session cookie must come from the dashboard’s origin (Origin, else Referer).
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Not found (`not_found`).
       *
       *     - `not_found`: No such tool registry.
       *     - `not_found`: No workspace of that name that the user holds a role in: one without a role answers as one that does not exist.
       */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'not_found';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Conflict (`workspace_suspended`).
       *
       *     - `workspace_suspended`: The workspace is Suspended while its budget is exceeded; changing tools waits until it is not.
       */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'workspace_suspended';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unavailable (`unavailable`).
       *
       *     - `unavailable`: No cluster is configured.
       *     - `unavailable`: The workspace is not ready (its ServiceAccounts do not exist yet), no token could be minted for its role, or the cluster could not be reached.
       */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unavailable';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  putWorkspaceAccess: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The workspace (the Workspace object’s name). */
        name: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['AccessChange'];
      };
    };
    responses: {
      /** @description The access as changed. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            access: components['schemas']['Access'];
          };
        };
      };
      /**
       * @description Bad request (`invalid_request`).
       *
       *     - `invalid_request`: An unknown or malformed field (the message names it).
       *     - `invalid_request`: The body is not a JSON object, or does not match its schema.
       */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'invalid_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unauthorized (`unauthorized`).
       *
       *     - `unauthorized`: No valid credential: none in oauth or builtin mode (or a session that ended), no user header from a trusted peer in proxy mode, or an API key or bearer token that is malformed, invalid, revoked or expired (a failed credential never falls back to another identity).
       */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unauthorized';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: Only the workspace’s owners manage its members; or the cluster refused the dashboard.
       *     - `forbidden`: Proxy mode: the user is not registered (SVC_AUTH_PROXY_AUTO_SIGNUP=false) or is disabled.
       *     - `forbidden`: Cross-site request refused: without a credential header, a request carrying the session cookie must come from the dashboard’s origin (Origin, else Referer).
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Not found (`not_found`).
       *
       *     - `not_found`: The Workspace was deleted meanwhile.
       *     - `not_found`: No workspace of that name that the user holds a role in: one without a role answers as one that does not exist.
       */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'not_found';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Conflict (`last_owner`, `conflict`).
       *
       *     - `last_owner`: The change would leave the workspace without an owner.
       *     - `conflict`: The Workspace changed since it was read: read it again and retry.
       */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'last_owner' | 'conflict';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Payload too large (`payload_too_large`).
       *
       *     - `payload_too_large`: The body is over 64 KiB.
       */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'payload_too_large';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unsupported media type (`unsupported_media_type`).
       *
       *     - `unsupported_media_type`: The body is not `application/json`.
       */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unsupported_media_type';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unavailable (`unavailable`).
       *
       *     - `unavailable`: The cluster could not be reached.
       *     - `unavailable`: No cluster is configured.
       */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unavailable';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  listRegistryTools: {
    parameters: {
      query?: {
        /** @description Discover again now instead of reusing a discovery of the last seconds. */
        refresh?: boolean;
      };
      header?: never;
      path: {
        /** @description The workspace (the Workspace object’s name). */
        name: string;
        /** @description The tool registry (ToolRegistry) name. */
        registry: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The registry’s tools and handlers. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            registry: string;
            tools: components['schemas']['RegistryToolDetails'][];
            handlers: components['schemas']['RegistryHandler'][];
            /** Format: date-time */
            discoveredAt: string;
          };
        };
      };
      /**
       * @description Bad request (`invalid_request`).
       *
       *     - `invalid_request`: The cluster found the object invalid (the message says why).
       */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'invalid_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unauthorized (`unauthorized`).
       *
       *     - `unauthorized`: No valid credential: none in oauth or builtin mode (or a session that ended), no user header from a trusted peer in proxy mode, or an API key or bearer token that is malformed, invalid, revoked or expired (a failed credential never falls back to another identity).
       */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unauthorized';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: The dashboard role may not view workspaces.
       *     - `forbidden`: The cluster refused the workspace role’s ServiceAccount.
       *     - `forbidden`: Proxy mode: the user is not registered (SVC_AUTH_PROXY_AUTO_SIGNUP=false) or is disabled.
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Not found (`not_found`).
       *
       *     - `not_found`: No such tool registry.
       *     - `not_found`: No workspace of that name that the user holds a role in: one without a role answers as one that does not exist.
       */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'not_found';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unavailable (`unavailable`).
       *
       *     - `unavailable`: No cluster is configured.
       *     - `unavailable`: The workspace is not ready (its ServiceAccounts do not exist yet), no token could be minted for its role, or the cluster could not be reached.
       */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unavailable';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  callRegistryTool: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The workspace (the Workspace object’s name). */
        name: string;
        /** @description The tool registry (ToolRegistry) name. */
        registry: string;
        /** @description The tool’s name, as its handler offers it. */
        tool: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description The tool’s arguments, per its input schema. */
          arguments: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description What the tool answered. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            result: components['schemas']['ToolCallResult'];
          };
        };
      };
      /**
       * @description Bad request (`invalid_request`).
       *
       *     - `invalid_request`: arguments is not a JSON object.
       *     - `invalid_request`: The cluster found the object invalid (the message says why).
       *     - `invalid_request`: The body is not a JSON object, or does not match its schema.
       */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'invalid_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unauthorized (`unauthorized`).
       *
       *     - `unauthorized`: No valid credential: none in oauth or builtin mode (or a session that ended), no user header from a trusted peer in proxy mode, or an API key or bearer token that is malformed, invalid, revoked or expired (a failed credential never falls back to another identity).
       */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unauthorized';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: The dashboard role or the workspace role does not allow trying tools (both must: editor or admin, and owner or editor).
       *     - `forbidden`: The cluster refused the workspace role’s ServiceAccount.
       *     - `forbidden`: Proxy mode: the user is not registered (SVC_AUTH_PROXY_AUTO_SIGNUP=false) or is disabled.
       *     - `forbidden`: Cross-site request refused: without a credential header, a request carrying the session cookie must come from the dashboard’s origin (Origin, else Referer).
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Not found (`not_found`).
       *
       *     - `not_found`: No such tool registry, or it offers no tool of that name.
       *     - `not_found`: No workspace of that name that the user holds a role in: one without a role answers as one that does not exist.
       */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'not_found';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Payload too large (`payload_too_large`).
       *
       *     - `payload_too_large`: The body is over 65536 bytes.
       *     - `payload_too_large`: The body is over 64 KiB.
       */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'payload_too_large';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unsupported media type (`unsupported_media_type`).
       *
       *     - `unsupported_media_type`: The body is not `application/json`.
       */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unsupported_media_type';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Bad gateway (`bad_gateway`).
       *
       *     - `bad_gateway`: The tool’s handler could not be reached, or the tool is not callable from the dashboard (mcp stdio); the message says why.
       */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'bad_gateway';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unavailable (`unavailable`).
       *
       *     - `unavailable`: No cluster is configured.
       *     - `unavailable`: The workspace is not ready (its ServiceAccounts do not exist yet), no token could be minted for its role, or the cluster could not be reached.
       */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unavailable';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  listAgentRuns: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The workspace (the Workspace object’s name). */
        name: string;
        /** @description The agent (AgentRuntime) name. */
        agentName: string;
        /** @description One of the agent’s pods, `<agent>-<ordinal>`. */
        podName: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The runs. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RunList'];
        };
      };
      /**
       * @description Bad request (`invalid_request`).
       *
       *     - `invalid_request`: agent or pod is not a Kubernetes object name, the run id is not a UUID, or the pod found the request invalid (an unknown prompt, a missing variable, an over-long task: the message says which).
       *     - `invalid_request`: The cluster found the object invalid (the message says why).
       */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'invalid_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unauthorized (`unauthorized`).
       *
       *     - `unauthorized`: No valid credential: none in oauth or builtin mode (or a session that ended), no user header from a trusted peer in proxy mode, or an API key or bearer token that is malformed, invalid, revoked or expired (a failed credential never falls back to another identity).
       */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unauthorized';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: The user’s roles do not allow this: starting and cancelling runs needs an editor role or higher in the workspace, reading them a viewer role.
       *     - `forbidden`: The cluster refused the workspace role’s ServiceAccount.
       *     - `forbidden`: Proxy mode: the user is not registered (SVC_AUTH_PROXY_AUTO_SIGNUP=false) or is disabled.
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Not found (`not_found`).
       *
       *     - `not_found`: No such agent, the agent has no such pod, or the pod has no such run.
       *     - `not_found`: No workspace of that name that the user holds a role in: one without a role answers as one that does not exist.
       */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'not_found';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Conflict (`conflict`).
       *
       *     - `conflict`: The agent names no model provider (`spec.provider`), so it runs no tasks: its pods serve the sandbox alone.
       */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'conflict';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Bad gateway (`bad_gateway`).
       *
       *     - `bad_gateway`: An agent's pod did not answer the request the dashboard passed on.
       */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'bad_gateway';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unavailable (`unavailable`).
       *
       *     - `unavailable`: The pod is not Ready, has no runs API yet, or the signing key cannot be read; or the agent is not ready to take a run.
       *     - `unavailable`: No cluster is configured.
       *     - `unavailable`: The workspace is not ready (its ServiceAccounts do not exist yet), no token could be minted for its role, or the cluster could not be reached.
       */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unavailable';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  startAgentRun: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The workspace (the Workspace object’s name). */
        name: string;
        /** @description The agent (AgentRuntime) name. */
        agentName: string;
        /** @description One of the agent’s pods, `<agent>-<ordinal>`. */
        podName: string;
      };
      cookie?: never;
    };
    /** @description A task: free text, or a prompt of the PromptPack with its variables */
    requestBody: {
      content: {
        'application/json': components['schemas']['StartRun'];
      };
    };
    responses: {
      /** @description Started, or waiting its turn. */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['StartedRun'];
        };
      };
      /**
       * @description Bad request (`invalid_request`).
       *
       *     - `invalid_request`: agent or pod is not a Kubernetes object name, the run id is not a UUID, or the pod found the request invalid (an unknown prompt, a missing variable, an over-long task: the message says which).
       *     - `invalid_request`: The cluster found the object invalid (the message says why).
       *     - `invalid_request`: The body is not a JSON object, or does not match its schema.
       */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'invalid_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unauthorized (`unauthorized`).
       *
       *     - `unauthorized`: No valid credential: none in oauth or builtin mode (or a session that ended), no user header from a trusted peer in proxy mode, or an API key or bearer token that is malformed, invalid, revoked or expired (a failed credential never falls back to another identity).
       */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unauthorized';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: The user’s roles do not allow this: starting and cancelling runs needs an editor role or higher in the workspace, reading them a viewer role.
       *     - `forbidden`: The workspace’s budget blocks new runs (the pod answers `budget_exceeded`).
       *     - `forbidden`: The cluster refused the workspace role’s ServiceAccount.
       *     - `forbidden`: Proxy mode: the user is not registered (SVC_AUTH_PROXY_AUTO_SIGNUP=false) or is disabled.
       *     - `forbidden`: Cross-site request refused: without a credential header, a request carrying the session cookie must come from the dashboard’s origin (Origin, else Referer).
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Not found (`not_found`).
       *
       *     - `not_found`: No such agent, the agent has no such pod, or the pod has no such run.
       *     - `not_found`: No workspace of that name that the user holds a role in: one without a role answers as one that does not exist.
       */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'not_found';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Conflict (`conflict`).
       *
       *     - `conflict`: The agent names no model provider (`spec.provider`), so it runs no tasks: its pods serve the sandbox alone.
       */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'conflict';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Payload too large (`payload_too_large`).
       *
       *     - `payload_too_large`: The body is over 64 KiB.
       */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'payload_too_large';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unsupported media type (`unsupported_media_type`).
       *
       *     - `unsupported_media_type`: The body is not `application/json`.
       */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unsupported_media_type';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Too many requests (`rate_limited`).
       *
       *     - `rate_limited`: The pod’s queue of runs is full (the pod answers `queue_full`).
       */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'rate_limited';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Bad gateway (`bad_gateway`).
       *
       *     - `bad_gateway`: An agent's pod did not answer the request the dashboard passed on.
       */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'bad_gateway';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unavailable (`unavailable`).
       *
       *     - `unavailable`: The pod is not Ready, has no runs API yet, or the signing key cannot be read; or the agent is not ready to take a run.
       *     - `unavailable`: No cluster is configured.
       *     - `unavailable`: The workspace is not ready (its ServiceAccounts do not exist yet), no token could be minted for its role, or the cluster could not be reached.
       */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unavailable';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  getAgentRun: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The workspace (the Workspace object’s name). */
        name: string;
        /** @description The agent (AgentRuntime) name. */
        agentName: string;
        /** @description One of the agent’s pods, `<agent>-<ordinal>`. */
        podName: string;
        /** @description The run, as started. */
        runId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The run. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OneRun'];
        };
      };
      /**
       * @description Bad request (`invalid_request`).
       *
       *     - `invalid_request`: agent or pod is not a Kubernetes object name, the run id is not a UUID, or the pod found the request invalid (an unknown prompt, a missing variable, an over-long task: the message says which).
       *     - `invalid_request`: The cluster found the object invalid (the message says why).
       */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'invalid_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unauthorized (`unauthorized`).
       *
       *     - `unauthorized`: No valid credential: none in oauth or builtin mode (or a session that ended), no user header from a trusted peer in proxy mode, or an API key or bearer token that is malformed, invalid, revoked or expired (a failed credential never falls back to another identity).
       */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unauthorized';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: The user’s roles do not allow this: starting and cancelling runs needs an editor role or higher in the workspace, reading them a viewer role.
       *     - `forbidden`: The cluster refused the workspace role’s ServiceAccount.
       *     - `forbidden`: Proxy mode: the user is not registered (SVC_AUTH_PROXY_AUTO_SIGNUP=false) or is disabled.
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Not found (`not_found`).
       *
       *     - `not_found`: No such agent, the agent has no such pod, or the pod has no such run.
       *     - `not_found`: No workspace of that name that the user holds a role in: one without a role answers as one that does not exist.
       */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'not_found';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Conflict (`conflict`).
       *
       *     - `conflict`: The agent names no model provider (`spec.provider`), so it runs no tasks: its pods serve the sandbox alone.
       */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'conflict';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Bad gateway (`bad_gateway`).
       *
       *     - `bad_gateway`: An agent's pod did not answer the request the dashboard passed on.
       */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'bad_gateway';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unavailable (`unavailable`).
       *
       *     - `unavailable`: The pod is not Ready, has no runs API yet, or the signing key cannot be read; or the agent is not ready to take a run.
       *     - `unavailable`: No cluster is configured.
       *     - `unavailable`: The workspace is not ready (its ServiceAccounts do not exist yet), no token could be minted for its role, or the cluster could not be reached.
       */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unavailable';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  streamAgentRunEvents: {
    parameters: {
      query?: {
        /** @description Events after this number (as `Last-Event-ID`, which wins when both are sent) */
        after?: number;
      };
      header?: never;
      path: {
        /** @description The workspace (the Workspace object’s name). */
        name: string;
        /** @description The agent (AgentRuntime) name. */
        agentName: string;
        /** @description One of the agent’s pods, `<agent>-<ordinal>`. */
        podName: string;
        /** @description The run, as started. */
        runId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Server-sent events: each event’s `id` is its number, its name its `type`, its `data` the event as JSON. The past events come first, then the live ones; the stream ends after the `outcome`. Send `Last-Event-ID` (or `?after=`) to resume after an event. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/event-stream': components['schemas']['RunEvent'];
        };
      };
      /**
       * @description Bad request (`invalid_request`).
       *
       *     - `invalid_request`: agent or pod is not a Kubernetes object name, the run id is not a UUID, or the pod found the request invalid (an unknown prompt, a missing variable, an over-long task: the message says which).
       *     - `invalid_request`: The cluster found the object invalid (the message says why).
       */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'invalid_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unauthorized (`unauthorized`).
       *
       *     - `unauthorized`: No valid credential: none in oauth or builtin mode (or a session that ended), no user header from a trusted peer in proxy mode, or an API key or bearer token that is malformed, invalid, revoked or expired (a failed credential never falls back to another identity).
       */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unauthorized';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: The user’s roles do not allow this: starting and cancelling runs needs an editor role or higher in the workspace, reading them a viewer role.
       *     - `forbidden`: The cluster refused the workspace role’s ServiceAccount.
       *     - `forbidden`: Proxy mode: the user is not registered (SVC_AUTH_PROXY_AUTO_SIGNUP=false) or is disabled.
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Not found (`not_found`).
       *
       *     - `not_found`: No such agent, the agent has no such pod, or the pod has no such run.
       *     - `not_found`: No workspace of that name that the user holds a role in: one without a role answers as one that does not exist.
       */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'not_found';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Conflict (`conflict`).
       *
       *     - `conflict`: The agent names no model provider (`spec.provider`), so it runs no tasks: its pods serve the sandbox alone.
       */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'conflict';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Bad gateway (`bad_gateway`).
       *
       *     - `bad_gateway`: An agent's pod did not answer the request the dashboard passed on.
       */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'bad_gateway';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unavailable (`unavailable`).
       *
       *     - `unavailable`: The pod is not Ready, has no runs API yet, or the signing key cannot be read; or the agent is not ready to take a run.
       *     - `unavailable`: No cluster is configured.
       *     - `unavailable`: The workspace is not ready (its ServiceAccounts do not exist yet), no token could be minted for its role, or the cluster could not be reached.
       */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unavailable';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  cancelAgentRun: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The workspace (the Workspace object’s name). */
        name: string;
        /** @description The agent (AgentRuntime) name. */
        agentName: string;
        /** @description One of the agent’s pods, `<agent>-<ordinal>`. */
        podName: string;
        /** @description The run, as started. */
        runId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The run, ended as cancelled (or as it had ended already). */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OneRun'];
        };
      };
      /**
       * @description Bad request (`invalid_request`).
       *
       *     - `invalid_request`: agent or pod is not a Kubernetes object name, the run id is not a UUID, or the pod found the request invalid (an unknown prompt, a missing variable, an over-long task: the message says which).
       *     - `invalid_request`: The cluster found the object invalid (the message says why).
       */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'invalid_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unauthorized (`unauthorized`).
       *
       *     - `unauthorized`: No valid credential: none in oauth or builtin mode (or a session that ended), no user header from a trusted peer in proxy mode, or an API key or bearer token that is malformed, invalid, revoked or expired (a failed credential never falls back to another identity).
       */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unauthorized';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: The user’s roles do not allow this: starting and cancelling runs needs an editor role or higher in the workspace, reading them a viewer role.
       *     - `forbidden`: The cluster refused the workspace role’s ServiceAccount.
       *     - `forbidden`: Proxy mode: the user is not registered (SVC_AUTH_PROXY_AUTO_SIGNUP=false) or is disabled.
       *     - `forbidden`: Cross-site request refused: without a credential header, a request carrying the session cookie must come from the dashboard’s origin (Origin, else Referer).
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Not found (`not_found`).
       *
       *     - `not_found`: No such agent, the agent has no such pod, or the pod has no such run.
       *     - `not_found`: No workspace of that name that the user holds a role in: one without a role answers as one that does not exist.
       */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'not_found';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Conflict (`conflict`).
       *
       *     - `conflict`: The agent names no model provider (`spec.provider`), so it runs no tasks: its pods serve the sandbox alone.
       */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'conflict';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Bad gateway (`bad_gateway`).
       *
       *     - `bad_gateway`: An agent's pod did not answer the request the dashboard passed on.
       */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'bad_gateway';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unavailable (`unavailable`).
       *
       *     - `unavailable`: The pod is not Ready, has no runs API yet, or the signing key cannot be read; or the agent is not ready to take a run.
       *     - `unavailable`: No cluster is configured.
       *     - `unavailable`: The workspace is not ready (its ServiceAccounts do not exist yet), no token could be minted for its role, or the cluster could not be reached.
       */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unavailable';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  readAgentSandbox: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The workspace (the Workspace object’s name). */
        name: string;
        /** @description The agent (AgentRuntime) name. */
        agentName: string;
        /** @description One of the agent’s pods, `<agent>-<ordinal>`. */
        podName: string;
        /** @description The path of the sandbox’s human API, e.g. `api/tree` (see the sandbox’s own OpenAPI description, `api/openapi.yaml` through this route). */
        sandboxPath: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The sandbox’s answer, whatever its status, headers and body. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          '*/*': unknown;
        };
      };
      /**
       * @description Bad request (`invalid_request`).
       *
       *     - `invalid_request`: agent or pod is not a Kubernetes object name.
       *     - `invalid_request`: The cluster found the object invalid (the message says why).
       */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'invalid_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unauthorized (`unauthorized`).
       *
       *     - `unauthorized`: No valid credential: none in oauth or builtin mode (or a session that ended), no user header from a trusted peer in proxy mode, or an API key or bearer token that is malformed, invalid, revoked or expired (a failed credential never falls back to another identity).
       */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unauthorized';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: The user’s roles do not allow this route of the sandbox (see above).
       *     - `forbidden`: The cluster refused the workspace role’s ServiceAccount.
       *     - `forbidden`: Proxy mode: the user is not registered (SVC_AUTH_PROXY_AUTO_SIGNUP=false) or is disabled.
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Not found (`not_found`).
       *
       *     - `not_found`: The agent has no such pod, or the dashboard does not pass this path on (the sandbox’s HTML docs page among them).
       *     - `not_found`: No workspace of that name that the user holds a role in: one without a role answers as one that does not exist.
       */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'not_found';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Method not allowed (`method_not_allowed`).
       *
       *     - `method_not_allowed`: The path does not take this method.
       */
      405: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'method_not_allowed';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Bad gateway (`bad_gateway`).
       *
       *     - `bad_gateway`: An agent's pod did not answer the request the dashboard passed on.
       */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'bad_gateway';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unavailable (`unavailable`).
       *
       *     - `unavailable`: The pod is not Ready, or the signing key cannot be read.
       *     - `unavailable`: No cluster is configured.
       *     - `unavailable`: The workspace is not ready (its ServiceAccounts do not exist yet), no token could be minted for its role, or the cluster could not be reached.
       */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unavailable';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  postAgentSandbox: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The workspace (the Workspace object’s name). */
        name: string;
        /** @description The agent (AgentRuntime) name. */
        agentName: string;
        /** @description One of the agent’s pods, `<agent>-<ordinal>`. */
        podName: string;
        /** @description The path of the sandbox’s human API, e.g. `api/tree` (see the sandbox’s own OpenAPI description, `api/openapi.yaml` through this route). */
        sandboxPath: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The sandbox’s answer, whatever its status, headers and body. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          '*/*': unknown;
        };
      };
      /**
       * @description Bad request (`invalid_request`).
       *
       *     - `invalid_request`: agent or pod is not a Kubernetes object name.
       *     - `invalid_request`: The cluster found the object invalid (the message says why).
       */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'invalid_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unauthorized (`unauthorized`).
       *
       *     - `unauthorized`: No valid credential: none in oauth or builtin mode (or a session that ended), no user header from a trusted peer in proxy mode, or an API key or bearer token that is malformed, invalid, revoked or expired (a failed credential never falls back to another identity).
       */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unauthorized';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: The user’s roles do not allow this route of the sandbox (see above).
       *     - `forbidden`: The cluster refused the workspace role’s ServiceAccount.
       *     - `forbidden`: Proxy mode: the user is not registered (SVC_AUTH_PROXY_AUTO_SIGNUP=false) or is disabled.
       *     - `forbidden`: Cross-site request refused: without a credential header, a request carrying the session cookie must come from the dashboard’s origin (Origin, else Referer).
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Not found (`not_found`).
       *
       *     - `not_found`: The agent has no such pod, or the dashboard does not pass this path on (the sandbox’s HTML docs page among them).
       *     - `not_found`: No workspace of that name that the user holds a role in: one without a role answers as one that does not exist.
       */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'not_found';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Method not allowed (`method_not_allowed`).
       *
       *     - `method_not_allowed`: The path does not take this method.
       */
      405: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'method_not_allowed';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Bad gateway (`bad_gateway`).
       *
       *     - `bad_gateway`: An agent's pod did not answer the request the dashboard passed on.
       */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'bad_gateway';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unavailable (`unavailable`).
       *
       *     - `unavailable`: The pod is not Ready, or the signing key cannot be read.
       *     - `unavailable`: No cluster is configured.
       *     - `unavailable`: The workspace is not ready (its ServiceAccounts do not exist yet), no token could be minted for its role, or the cluster could not be reached.
       */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unavailable';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  deleteAgentSandbox: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The workspace (the Workspace object’s name). */
        name: string;
        /** @description The agent (AgentRuntime) name. */
        agentName: string;
        /** @description One of the agent’s pods, `<agent>-<ordinal>`. */
        podName: string;
        /** @description The path of the sandbox’s human API, e.g. `api/tree` (see the sandbox’s own OpenAPI description, `api/openapi.yaml` through this route). */
        sandboxPath: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The sandbox’s answer, whatever its status, headers and body. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          '*/*': unknown;
        };
      };
      /**
       * @description Bad request (`invalid_request`).
       *
       *     - `invalid_request`: agent or pod is not a Kubernetes object name.
       *     - `invalid_request`: The cluster found the object invalid (the message says why).
       */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'invalid_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unauthorized (`unauthorized`).
       *
       *     - `unauthorized`: No valid credential: none in oauth or builtin mode (or a session that ended), no user header from a trusted peer in proxy mode, or an API key or bearer token that is malformed, invalid, revoked or expired (a failed credential never falls back to another identity).
       */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unauthorized';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: The user’s roles do not allow this route of the sandbox (see above).
       *     - `forbidden`: The cluster refused the workspace role’s ServiceAccount.
       *     - `forbidden`: Proxy mode: the user is not registered (SVC_AUTH_PROXY_AUTO_SIGNUP=false) or is disabled.
       *     - `forbidden`: Cross-site request refused: without a credential header, a request carrying the session cookie must come from the dashboard’s origin (Origin, else Referer).
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Not found (`not_found`).
       *
       *     - `not_found`: The agent has no such pod, or the dashboard does not pass this path on (the sandbox’s HTML docs page among them).
       *     - `not_found`: No workspace of that name that the user holds a role in: one without a role answers as one that does not exist.
       */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'not_found';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Method not allowed (`method_not_allowed`).
       *
       *     - `method_not_allowed`: The path does not take this method.
       */
      405: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'method_not_allowed';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Bad gateway (`bad_gateway`).
       *
       *     - `bad_gateway`: An agent's pod did not answer the request the dashboard passed on.
       */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'bad_gateway';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unavailable (`unavailable`).
       *
       *     - `unavailable`: The pod is not Ready, or the signing key cannot be read.
       *     - `unavailable`: No cluster is configured.
       *     - `unavailable`: The workspace is not ready (its ServiceAccounts do not exist yet), no token could be minted for its role, or the cluster could not be reached.
       */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unavailable';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  streamAgentMcp: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The workspace (the Workspace object’s name). */
        name: string;
        /** @description The agent (AgentRuntime) name. */
        agentName: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The MCP server’s answer: JSON or an event stream. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': unknown;
          'text/event-stream': unknown;
        };
      };
      /**
       * @description Bad request (`invalid_request`).
       *
       *     - `invalid_request`: agent is not a Kubernetes object name, or sessionId is missing.
       *     - `invalid_request`: The cluster found the object invalid (the message says why).
       */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'invalid_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unauthorized (`unauthorized`).
       *
       *     - `unauthorized`: No valid credential: none in oauth or builtin mode (or a session that ended), no user header from a trusted peer in proxy mode, or an API key or bearer token that is malformed, invalid, revoked or expired (a failed credential never falls back to another identity).
       */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unauthorized';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: The user’s roles do not allow the agent’s MCP server (editor or higher).
       *     - `forbidden`: The cluster refused the workspace role’s ServiceAccount.
       *     - `forbidden`: Proxy mode: the user is not registered (SVC_AUTH_PROXY_AUTO_SIGNUP=false) or is disabled.
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Not found (`not_found`).
       *
       *     - `not_found`: No such session (its replica is gone): start a new one.
       *     - `not_found`: No workspace of that name that the user holds a role in: one without a role answers as one that does not exist.
       */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'not_found';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Bad gateway (`bad_gateway`).
       *
       *     - `bad_gateway`: An agent's pod did not answer the request the dashboard passed on.
       */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'bad_gateway';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unavailable (`unavailable`).
       *
       *     - `unavailable`: The agent has no Ready replica.
       *     - `unavailable`: No cluster is configured.
       *     - `unavailable`: The workspace is not ready (its ServiceAccounts do not exist yet), no token could be minted for its role, or the cluster could not be reached.
       */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unavailable';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  postAgentMcp: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The workspace (the Workspace object’s name). */
        name: string;
        /** @description The agent (AgentRuntime) name. */
        agentName: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The MCP server’s answer: JSON or an event stream. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': unknown;
          'text/event-stream': unknown;
        };
      };
      /**
       * @description Bad request (`invalid_request`).
       *
       *     - `invalid_request`: agent is not a Kubernetes object name, or sessionId is missing.
       *     - `invalid_request`: The cluster found the object invalid (the message says why).
       */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'invalid_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unauthorized (`unauthorized`).
       *
       *     - `unauthorized`: No valid credential: none in oauth or builtin mode (or a session that ended), no user header from a trusted peer in proxy mode, or an API key or bearer token that is malformed, invalid, revoked or expired (a failed credential never falls back to another identity).
       */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unauthorized';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: The user’s roles do not allow the agent’s MCP server (editor or higher).
       *     - `forbidden`: The cluster refused the workspace role’s ServiceAccount.
       *     - `forbidden`: Proxy mode: the user is not registered (SVC_AUTH_PROXY_AUTO_SIGNUP=false) or is disabled.
       *     - `forbidden`: Cross-site request refused: without a credential header, a request carrying the session cookie must come from the dashboard’s origin (Origin, else Referer).
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Not found (`not_found`).
       *
       *     - `not_found`: No such session (its replica is gone): start a new one.
       *     - `not_found`: No workspace of that name that the user holds a role in: one without a role answers as one that does not exist.
       */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'not_found';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Bad gateway (`bad_gateway`).
       *
       *     - `bad_gateway`: An agent's pod did not answer the request the dashboard passed on.
       */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'bad_gateway';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unavailable (`unavailable`).
       *
       *     - `unavailable`: The agent has no Ready replica.
       *     - `unavailable`: No cluster is configured.
       *     - `unavailable`: The workspace is not ready (its ServiceAccounts do not exist yet), no token could be minted for its role, or the cluster could not be reached.
       */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unavailable';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  deleteAgentMcp: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The workspace (the Workspace object’s name). */
        name: string;
        /** @description The agent (AgentRuntime) name. */
        agentName: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The MCP server’s answer: JSON or an event stream. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': unknown;
          'text/event-stream': unknown;
        };
      };
      /**
       * @description Bad request (`invalid_request`).
       *
       *     - `invalid_request`: agent is not a Kubernetes object name, or sessionId is missing.
       *     - `invalid_request`: The cluster found the object invalid (the message says why).
       */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'invalid_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unauthorized (`unauthorized`).
       *
       *     - `unauthorized`: No valid credential: none in oauth or builtin mode (or a session that ended), no user header from a trusted peer in proxy mode, or an API key or bearer token that is malformed, invalid, revoked or expired (a failed credential never falls back to another identity).
       */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unauthorized';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: The user’s roles do not allow the agent’s MCP server (editor or higher).
       *     - `forbidden`: The cluster refused the workspace role’s ServiceAccount.
       *     - `forbidden`: Proxy mode: the user is not registered (SVC_AUTH_PROXY_AUTO_SIGNUP=false) or is disabled.
       *     - `forbidden`: Cross-site request refused: without a credential header, a request carrying the session cookie must come from the dashboard’s origin (Origin, else Referer).
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Not found (`not_found`).
       *
       *     - `not_found`: No such session (its replica is gone): start a new one.
       *     - `not_found`: No workspace of that name that the user holds a role in: one without a role answers as one that does not exist.
       */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'not_found';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Bad gateway (`bad_gateway`).
       *
       *     - `bad_gateway`: An agent's pod did not answer the request the dashboard passed on.
       */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'bad_gateway';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unavailable (`unavailable`).
       *
       *     - `unavailable`: The agent has no Ready replica.
       *     - `unavailable`: No cluster is configured.
       *     - `unavailable`: The workspace is not ready (its ServiceAccounts do not exist yet), no token could be minted for its role, or the cluster could not be reached.
       */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unavailable';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  openAgentMcpSse: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The workspace (the Workspace object’s name). */
        name: string;
        /** @description The agent (AgentRuntime) name. */
        agentName: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The MCP server’s answer: JSON or an event stream. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': unknown;
          'text/event-stream': unknown;
        };
      };
      /**
       * @description Bad request (`invalid_request`).
       *
       *     - `invalid_request`: agent is not a Kubernetes object name, or sessionId is missing.
       *     - `invalid_request`: The cluster found the object invalid (the message says why).
       */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'invalid_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unauthorized (`unauthorized`).
       *
       *     - `unauthorized`: No valid credential: none in oauth or builtin mode (or a session that ended), no user header from a trusted peer in proxy mode, or an API key or bearer token that is malformed, invalid, revoked or expired (a failed credential never falls back to another identity).
       */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unauthorized';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: The user’s roles do not allow the agent’s MCP server (editor or higher).
       *     - `forbidden`: The cluster refused the workspace role’s ServiceAccount.
       *     - `forbidden`: Proxy mode: the user is not registered (SVC_AUTH_PROXY_AUTO_SIGNUP=false) or is disabled.
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Not found (`not_found`).
       *
       *     - `not_found`: No such session (its replica is gone): start a new one.
       *     - `not_found`: No workspace of that name that the user holds a role in: one without a role answers as one that does not exist.
       */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'not_found';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Bad gateway (`bad_gateway`).
       *
       *     - `bad_gateway`: An agent's pod did not answer the request the dashboard passed on.
       */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'bad_gateway';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unavailable (`unavailable`).
       *
       *     - `unavailable`: The agent has no Ready replica.
       *     - `unavailable`: No cluster is configured.
       *     - `unavailable`: The workspace is not ready (its ServiceAccounts do not exist yet), no token could be minted for its role, or the cluster could not be reached.
       */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unavailable';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  postAgentMcpSseMessage: {
    parameters: {
      query: {
        /** @description The session, as the `endpoint` event named it. */
        sessionId: string;
      };
      header?: never;
      path: {
        /** @description The workspace (the Workspace object’s name). */
        name: string;
        /** @description The agent (AgentRuntime) name. */
        agentName: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The MCP server’s answer: JSON or an event stream. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': unknown;
          'text/event-stream': unknown;
        };
      };
      /**
       * @description Bad request (`invalid_request`).
       *
       *     - `invalid_request`: agent is not a Kubernetes object name, or sessionId is missing.
       *     - `invalid_request`: The cluster found the object invalid (the message says why).
       */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'invalid_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unauthorized (`unauthorized`).
       *
       *     - `unauthorized`: No valid credential: none in oauth or builtin mode (or a session that ended), no user header from a trusted peer in proxy mode, or an API key or bearer token that is malformed, invalid, revoked or expired (a failed credential never falls back to another identity).
       */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unauthorized';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Forbidden (`forbidden`).
       *
       *     - `forbidden`: The user’s roles do not allow the agent’s MCP server (editor or higher).
       *     - `forbidden`: The cluster refused the workspace role’s ServiceAccount.
       *     - `forbidden`: Proxy mode: the user is not registered (SVC_AUTH_PROXY_AUTO_SIGNUP=false) or is disabled.
       *     - `forbidden`: Cross-site request refused: without a credential header, a request carrying the session cookie must come from the dashboard’s origin (Origin, else Referer).
       */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'forbidden';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Not found (`not_found`).
       *
       *     - `not_found`: No such session (its replica is gone): start a new one.
       *     - `not_found`: No workspace of that name that the user holds a role in: one without a role answers as one that does not exist.
       */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'not_found';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Bad gateway (`bad_gateway`).
       *
       *     - `bad_gateway`: An agent's pod did not answer the request the dashboard passed on.
       */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'bad_gateway';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Unavailable (`unavailable`).
       *
       *     - `unavailable`: The agent has no Ready replica.
       *     - `unavailable`: No cluster is configured.
       *     - `unavailable`: The workspace is not ready (its ServiceAccounts do not exist yet), no token could be minted for its role, or the cluster could not be reached.
       */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'unavailable';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  getOpenApiYaml: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The document. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/yaml': string;
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
    };
  };
  getOpenApiJson: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The document. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      /**
       * @description Misdirected request (`misdirected_request`).
       *
       *     - `misdirected_request`: The Host header is not a name of this dashboard: SVC_BASE_URL’s host, or without it `localhost`, `127.0.0.1`, `[::1]` and the listen address, with the port (DNS rebinding).
       */
      421: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'misdirected_request';
          } & components['schemas']['Error'];
        };
      };
      /**
       * @description Internal error (`internal_error`).
       *
       *     - `internal_error`: An unexpected failure; the message says nothing of it, the log does.
       */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {unknown} */
            error?: 'internal_error';
          } & components['schemas']['Error'];
        };
      };
    };
  };
}
