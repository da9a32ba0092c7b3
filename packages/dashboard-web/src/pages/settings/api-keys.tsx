export function ApiKeysPage() {
  return <h1>API keys</h1>;
}
