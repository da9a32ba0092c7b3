import type { WorkspaceDetails } from './types';

/**
 * What every view of a workspace is given: the workspace and a way to read it again. Kept apart
 * from the workspace page so that its tabs depend on this, not on the page that renders them.
 */
export interface WorkspaceViewProps {
  workspace: WorkspaceDetails;
  /** Reads the workspace again (after a change, or an answer saying it is suspended). */
  reloadWorkspace: () => void;
}
