import { Route, Routes } from 'react-router';
import { AuthProvider, RequireAuth } from './auth';
import { DocumentTitle } from './layout/document-title';
import { Shell } from './layout/shell';
import { PAGE_PATHS } from './page-paths';
import { ForgotPasswordPage } from './pages/auth/forgot-password';
import { LoginPage } from './pages/auth/login';
import { ResetPasswordPage } from './pages/auth/reset-password';
import { SignUpPage } from './pages/auth/signup';
import { VerifyEmailPage } from './pages/auth/verify-email';
import { NotFoundPage } from './pages/not-found';
import { ApiKeysPage } from './pages/settings/api-keys';
import { ChangePasswordPage } from './pages/settings/change-password';
import { UsersPage } from './pages/settings/users';
import { WorkspacesPage } from './pages/workspaces/list';
import { NewWorkspacePage } from './pages/workspaces/new-workspace';
import { WorkspacePage } from './pages/workspaces/workspace';

/**
 * Every page of the dashboard. Sign-in, sign-up, password and email pages are reachable signed
 * out; everything else asks to sign in first and comes back after. The paths are PAGE_PATHS: the
 * dashboard answers the page for those alone (the index route is its `workspaces`, `/`).
 */
export function App() {
  return (
    <AuthProvider>
      <DocumentTitle />
      <Routes>
        <Route path={PAGE_PATHS.login} element={<LoginPage />} />
        <Route path={PAGE_PATHS.signup} element={<SignUpPage />} />
        <Route path={PAGE_PATHS.forgotPassword} element={<ForgotPasswordPage />} />
        <Route path={PAGE_PATHS.resetPassword} element={<ResetPasswordPage />} />
        <Route path={PAGE_PATHS.verifyEmail} element={<VerifyEmailPage />} />
        <Route
          element={
            <RequireAuth>
              <Shell />
            </RequireAuth>
          }
        >
          <Route index element={<WorkspacesPage />} />
          <Route path={PAGE_PATHS.workspace} element={<WorkspacePage />} />
          <Route path={PAGE_PATHS.apiKeys} element={<ApiKeysPage />} />
          <Route path={PAGE_PATHS.changePassword} element={<ChangePasswordPage />} />
          <Route path={PAGE_PATHS.users} element={<UsersPage />} />
          <Route path={PAGE_PATHS.newWorkspace} element={<NewWorkspacePage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Routes>
    </AuthProvider>
  );
}
