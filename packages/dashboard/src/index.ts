export { main, USAGE } from './main.js';
export { loadDashboardConfig, dashboardEnv, publicOrigin, type DashboardConfig } from './config.js';
export { resolveRole, type RoleMapping } from './auth/roles.js';
export { can, PERMISSIONS, type Action } from './auth/permissions.js';
export { safeReturnTo } from './auth/return-to.js';
export type { User, Role, Provider } from './auth/user.js';
