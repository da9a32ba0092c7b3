export function WorkspacePage() {
  return <h1>Workspace</h1>;
}
