import { Link } from 'react-router';
import { seg } from '../../api';
import { useAuth } from '../../auth';
import { PAGE_PATHS } from '../../page-paths';
import { Empty, ErrorState, Loading } from '../../ui/states';
import { useApi } from '../../ui/use-api';
import { errorSentence, isCode } from './errors';
import { FocusHeading, PhaseBadge, RoleBadge } from './parts';
import type { WorkspaceList } from './types';

/** `/`: the workspaces the user holds a role in, with that role. */
export function WorkspacesPage() {
  const { data, error, reload } = useApi<WorkspaceList>('/api/workspaces?limit=1000');
  // Only the dashboard's admins create workspaces (the API refuses anyone else).
  const mayCreate = useAuth().user?.role === 'admin';
  return (
    <section className="page ws-list" aria-labelledby="workspaces-title">
      <header>
        <div>
          <FocusHeading level={1} id="workspaces-title">
            Workspaces
          </FocusHeading>
          <p className="muted ws-lede">The workspaces you hold a role in.</p>
        </div>
        {mayCreate && (
          <Link className="button primary" to={PAGE_PATHS.newWorkspace}>
            New workspace
          </Link>
        )}
      </header>
      {error !== undefined ? (
        <ErrorState
          title="Your workspaces could not be loaded"
          error={
            isCode(error, 'unavailable')
              ? 'No cluster is configured for this dashboard (or it cannot be reached), so there are no workspaces to show.'
              : errorSentence(error)
          }
          retry={reload}
        />
      ) : data === undefined ? (
        <Loading label="Loading your workspaces" />
      ) : data.workspaces.length === 0 ? (
        <Empty title="You have no workspaces yet">
          <p>
            Access to a workspace comes from the Workspace itself: its <code>roleBindings</code>{' '}
            (groups and service accounts) and <code>directGrants</code> (single users). Ask an owner
            of the workspace you need to add your group or you.
          </p>
          {mayCreate && (
            <p>
              As an admin, you can also <Link to={PAGE_PATHS.newWorkspace}>create a workspace</Link>
              : you become its owner.
            </p>
          )}
        </Empty>
      ) : (
        <ul className="ws-cards" aria-label="Your workspaces">
          {data.workspaces.map((w) => (
            <li key={w.name} className="card ws-card">
              <h2>
                <Link to={`/workspaces/${seg(w.name)}`}>{w.displayName}</Link>
              </h2>
              <p className="ws-card-name">
                <code>{w.name}</code>
              </p>
              {w.description !== null && <p className="ws-card-description">{w.description}</p>}
              <dl className="facts">
                <dt>Phase</dt>
                <dd>
                  <PhaseBadge phase={w.phase} />
                </dd>
                <dt>Your role</dt>
                <dd>
                  <RoleBadge role={w.role} />
                </dd>
                <dt>Environment</dt>
                <dd>{w.environment ?? '—'}</dd>
                <dt>Namespace</dt>
                <dd>
                  <code>{w.namespace}</code>
                </dd>
              </dl>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
