import { useId } from 'react';
import { useMatch, useNavigate } from 'react-router';
import { seg } from '../api';
import type { WorkspaceList } from '../pages/workspaces/types';
import { useApi } from '../ui/use-api';
import '../pages/workspaces/workspaces.css';

/**
 * The workspace switcher of the header: the user's workspaces with their role, the current one
 * selected; choosing one opens it. Hidden while loading, on failure, and when there are none.
 */
export function WorkspaceSwitcher() {
  const id = useId();
  const navigate = useNavigate();
  const match = useMatch('/workspaces/:name/*');
  const current = match?.params.name ?? '';
  const { data } = useApi<WorkspaceList>('/api/workspaces?limit=1000');
  const workspaces = data?.workspaces ?? [];
  if (workspaces.length === 0) return null;
  const known = workspaces.some((w) => w.name === current);
  return (
    <div className="ws-switcher">
      <label htmlFor={id}>Workspace</label>
      <select
        id={id}
        value={known ? current : ''}
        onChange={(event) => {
          const name = event.target.value;
          void navigate(name === '' ? '/' : `/workspaces/${seg(name)}`);
        }}
      >
        <option value="">All workspaces</option>
        {workspaces.map((w) => (
          <option key={w.name} value={w.name}>
            {w.displayName === w.name ? w.name : `${w.displayName} (${w.name})`} — {w.role}
          </option>
        ))}
      </select>
    </div>
  );
}
