import {
  startDashboard,
  startSmtp,
  type RunningDashboard,
  type RunningSmtp,
} from '@paddock/testing';

export interface SignupDashboard {
  smtp: RunningSmtp;
  dashboard: RunningDashboard;
  /** Stops the dashboard, then the SMTP server. */
  stop: () => Promise<void>;
}

/**
 * A dashboard in builtin mode that lets people sign up and sends its mail to a test SMTP server;
 * `env` adds to its SVC_* variables.
 */
export async function startSignupDashboard(env: Record<string, string>): Promise<SignupDashboard> {
  const smtp = await startSmtp();
  let dashboard: RunningDashboard;
  try {
    dashboard = await startDashboard({
      SVC_AUTH_MODE: 'builtin',
      SVC_BUILTIN_ALLOW_SIGNUP: 'true',
      ...env,
      SVC_SMTP_URL: smtp.url,
    });
  } catch (error) {
    await smtp.stop();
    throw error;
  }
  return {
    smtp,
    dashboard,
    stop: async () => {
      await dashboard.stop();
      await smtp.stop();
    },
  };
}
