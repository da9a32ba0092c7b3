export function WorkspacesPage() {
  return <h1>Workspaces</h1>;
}
