import { Link, NavLink, Route, Routes, useParams } from 'react-router';
import { seg } from '../../api';
import { ErrorState, Loading } from '../../ui/states';
import { useApi } from '../../ui/use-api';
import { useTitleNames } from '../../layout/document-title';
import { AgentPage } from './agent';
import { AgentsTab } from './agents';
import { apiPath, errorSentence, isCode } from './errors';
import { MembersTab } from './members';
import { OverviewTab } from './overview';
import { budgetOverruns } from './budget-rules';
import { FocusHeading, FocusYield, PhaseBadge, RoleBadge } from './parts';
import { PromptPacksTab } from './prompt-packs';
import { ToolRegistriesTab } from './tool-registries';
import type { WorkspaceDetails } from './types';

/** `/workspaces/:name/*`: one workspace, its views as tabs. */
export function WorkspacePage() {
  const { name = '' } = useParams();
  // Another workspace starts afresh: no state of the last one carries over.
  return <WorkspaceView key={name} name={name} />;
}

function WorkspaceView({ name }: { name: string }) {
  const { data, error, reload } = useApi<{ workspace: WorkspaceDetails }>(apiPath(name));
  const workspace = data?.workspace;
  useTitleNames({ workspace: workspace?.displayName ?? name });

  if (workspace === undefined && isCode(error, 'not_found')) {
    return (
      <section className="page">
        <FocusHeading level={1}>Workspace not found</FocusHeading>
        <p role="alert">
          No workspace named <strong>{name}</strong>, or you have no access to it.
        </p>
        <p>
          Access comes from the workspace’s role bindings and direct grants: ask one of its owners.{' '}
          <Link to="/">Go to your workspaces</Link>.
        </p>
      </section>
    );
  }

  const base = `/workspaces/${seg(name)}`;
  const props = workspace && { workspace, reloadWorkspace: reload };
  return (
    <section className="page ws-workspace" aria-labelledby="workspace-title">
      <header className="ws-header">
        <div>
          <p className="ws-breadcrumb">
            <Link to="/">Workspaces</Link> <span aria-hidden="true">/</span>
          </p>
          <FocusHeading level={1} id="workspace-title">
            {workspace?.displayName ?? name}
          </FocusHeading>
          {workspace && (
            <p className="ws-header-facts">
              <code>{workspace.name}</code>
              <PhaseBadge phase={workspace.phase} label={`Phase: ${workspace.phase}`} />
              <span>
                Your role: <RoleBadge role={workspace.role} />
              </span>
              {workspace.environment !== null && <span>Environment: {workspace.environment}</span>}
            </p>
          )}
        </div>
      </header>
      {error !== undefined && (
        <ErrorState
          title={
            workspace === undefined
              ? 'The workspace could not be loaded'
              : 'The workspace could not be refreshed'
          }
          error={errorSentence(error)}
          retry={reload}
        />
      )}
      {props === undefined ? (
        error === undefined && <Loading label="Loading the workspace" />
      ) : (
        <FocusYield.Provider value="workspace-title">
          {props.workspace.phase === 'Suspended' && <SuspendedNotice workspace={props.workspace} />}
          <nav className="tabs ws-tabs" aria-label="Workspace sections">
            <NavLink to={base} end>
              Overview
            </NavLink>
            <NavLink to={`${base}/agents`}>Agents</NavLink>
            <NavLink to={`${base}/promptpacks`}>Prompt packs</NavLink>
            <NavLink to={`${base}/toolregistries`}>Tool registries</NavLink>
            {props.workspace.permissions.manageMembers && (
              <NavLink to={`${base}/members`}>Members</NavLink>
            )}
          </nav>
          <Routes>
            <Route index element={<OverviewTab {...props} />} />
            <Route path="agents" element={<AgentsTab {...props} />} />
            <Route path="agents/:agentName" element={<AgentPage {...props} />} />
            <Route path="promptpacks" element={<PromptPacksTab {...props} />} />
            <Route path="toolregistries" element={<ToolRegistriesTab {...props} />} />
            <Route
              path="members"
              element={
                props.workspace.permissions.manageMembers ? (
                  <MembersTab {...props} />
                ) : (
                  <section aria-labelledby="members-title">
                    <FocusHeading level={2} id="members-title">
                      Members
                    </FocusHeading>
                    <p>Only the workspace’s owners manage its members.</p>
                  </section>
                )
              }
            />
            <Route
              path="*"
              element={
                <section>
                  <FocusHeading level={2}>Nothing here</FocusHeading>
                  <p>
                    This workspace has no such page. <Link to={base}>Go to its overview</Link>.
                  </p>
                </section>
              }
            />
          </Routes>
        </FocusYield.Provider>
      )}
    </section>
  );
}

/** While the budget keeps the workspace Suspended: shown above every view. */
function SuspendedNotice({ workspace }: { workspace: WorkspaceDetails }) {
  const over = budgetOverruns(workspace.costUsage);
  return (
    <div className="notice error ws-suspended">
      <p>
        <strong>This workspace is suspended: changes are blocked.</strong>
      </p>
      <p>
        Its budget is exceeded{over.length > 0 ? ` (${over.join('; ')})` : ''}. Until spending is
        back under budget or the budget is raised, its agents, prompt packs and tool registries
        cannot be created, changed or deleted. Everything can still be viewed, and owners can still
        manage members.
      </p>
    </div>
  );
}
