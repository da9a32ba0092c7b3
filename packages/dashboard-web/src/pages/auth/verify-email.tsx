export function VerifyEmailPage() {
  return <h1>VerifyEmailPage</h1>;
}
