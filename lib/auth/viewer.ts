import { getSessionCookie } from 'better-auth/cookies';
import type { AssayConfig } from '../config.ts';
import { AppError } from '../common/errors.ts';
import type { Auth } from './auth.ts';
import { ACCESS, isRole, type Operation, type Role, roleAtLeast } from './roles.ts';

/** Who is asking: a signed-in account with its role, or an anonymous visitor. */
export interface Viewer {
  user: { id: string; name: string; email: string; role: Role } | null;
  /** The role the request acts with: the account's, or `reader` for anonymous visitors when allowed, else null. */
  role: Role | null;
  /** What this viewer may not do although their role may: an anonymous visitor's, by configuration. */
  denied?: readonly Operation[];
}

/**
 * The viewer a request's cookies name (a banned account counts as signed out). `auth` may be given as a getter: a
 * request without a session cookie (better-auth's own check of its cookie names) is anonymous without it, so an
 * anonymous question never loads better-auth or asks the database — on a restart, its route loaded better-auth and
 * made its instance before the first answer (0.15 s of the server's thread, which that answer waited for).
 */
type AnonymousSettings = Pick<AssayConfig, 'anonymous'> & Partial<Pick<AssayConfig, 'evaluationsVisible'>>;

export async function viewerOf(auth: Auth | (() => Promise<Auth>), headers: Headers, cfg: AnonymousSettings): Promise<Viewer> {
  if (!getSessionCookie(headers)) return anonymous(cfg);
  const session = await (typeof auth === 'function' ? await auth() : auth).api.getSession({ headers });
  const u = session?.user as { id: string; name: string; email: string; role?: string | null; banned?: boolean | null } | undefined;
  if (u && !u.banned) {
    const role = isRole(u.role) ? u.role : 'reader';
    return { user: { id: u.id, name: u.name, email: u.email, role }, role };
  }
  return anonymous(cfg);
}

const anonymous = (cfg: AnonymousSettings): Viewer => ({
  user: null,
  role: cfg.anonymous === 'reader' ? 'reader' : null,
  denied: (cfg.evaluationsVisible ?? 'signed-in') === 'everyone' ? [] : ['evaluations'],
});

/** Whether the viewer may do `operation`. */
export const may = (viewer: Viewer, operation: Operation): boolean => roleAtLeast(viewer.role, ACCESS[operation]) && !viewer.denied?.includes(operation);

/**
 * Throws unless the viewer may do `operation`: 401 when signing in would help (nobody is signed in), 403 when the
 * signed-in account's role is too low. Every route handler and server action that reads or changes protected data
 * calls this first, on the server.
 */
export function assertMay(viewer: Viewer, operation: Operation): Viewer {
  if (may(viewer, operation)) return viewer;
  const needed = ACCESS[operation];
  if (!viewer.user) throw new AppError('unauthorized', `sign in${needed === 'reader' ? '' : ` with an ${needed} account`} to do this`);
  // A signed-in account is never denied beyond its role: only anonymous visitors have a `denied` list.
  throw new AppError('forbidden', `this needs the ${needed} role; your account is a ${viewer.user.role}`);
}
