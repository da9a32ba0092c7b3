import { NavLink, Outlet } from 'react-router';
import { useAuth } from '../auth';
import { UserMenu } from './user-menu';
import { WorkspaceSwitcher } from './workspace-switcher';

/** The frame of every signed-in page: header with the workspace switcher and the user menu. */
export function Shell() {
  const { user, config } = useAuth();
  const isAdmin = user?.role === 'admin';
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <NavLink to="/" className="brand" aria-label="Paddock, all workspaces">
          <img src="/favicon.svg" alt="" width="24" height="24" />
          <span>Paddock</span>
        </NavLink>
        <WorkspaceSwitcher />
        <nav aria-label="Main" className="topnav">
          <NavLink to="/" end>
            Workspaces
          </NavLink>
          {config.apiKeysEnabled && user?.provider !== 'anonymous' && (
            <NavLink to="/settings/api-keys">API keys</NavLink>
          )}
          {isAdmin && config.mode === 'builtin' && <NavLink to="/admin/users">Users</NavLink>}
        </nav>
        <UserMenu />
      </header>
      <main id="main" className="content" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}
