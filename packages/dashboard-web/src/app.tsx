import { Route, Routes } from 'react-router';
import { AuthProvider, RequireAuth } from './auth';
import { Shell } from './layout/shell';
import { ForgotPasswordPage } from './pages/auth/forgot-password';
import { LoginPage } from './pages/auth/login';
import { ResetPasswordPage } from './pages/auth/reset-password';
import { SignUpPage } from './pages/auth/signup';
import { VerifyEmailPage } from './pages/auth/verify-email';
import { NotFoundPage } from './pages/not-found';
import { ApiKeysPage } from './pages/settings/api-keys';
import { UsersPage } from './pages/settings/users';
import { WorkspacesPage } from './pages/workspaces/list';
import { WorkspacePage } from './pages/workspaces/workspace';

/**
 * Every page of the dashboard. Sign-in, sign-up, password and email pages are reachable signed
 * out; everything else asks to sign in first and comes back after.
 */
export function App() {
  return (
    <AuthProvider>
      <Routes>
        <Route path="/login" element={<LoginPage />} />
        <Route path="/signup" element={<SignUpPage />} />
        <Route path="/forgot-password" element={<ForgotPasswordPage />} />
        <Route path="/reset-password" element={<ResetPasswordPage />} />
        <Route path="/verify-email" element={<VerifyEmailPage />} />
        <Route
          element={
            <RequireAuth>
              <Shell />
            </RequireAuth>
          }
        >
          <Route index element={<WorkspacesPage />} />
          <Route path="/workspaces/:name/*" element={<WorkspacePage />} />
          <Route path="/settings/api-keys" element={<ApiKeysPage />} />
          <Route path="/admin/users" element={<UsersPage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Routes>
    </AuthProvider>
  );
}
