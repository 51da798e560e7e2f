/**
 * Who may do what, as pages, route handlers and server actions ask it: the viewer of a request, the role checks and
 * the guard every route handler runs in. The app reaches lib/auth only through here.
 */
export { getAuth } from '../auth/auth.ts';
export { handleAuthRequest } from '../auth/auth-requests.ts';
export { guarded } from '../auth/guard.ts';
export { ACCESS, isRole, type Operation, ROLE_DESCRIPTIONS, ROLES, type Role } from '../auth/roles.ts';
export { requireAccess, viewerFor } from '../auth/session.ts';
export { may, type Viewer } from '../auth/viewer.ts';
