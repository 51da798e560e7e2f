import { config } from '../config.ts';
import type { Operation } from './roles.ts';
import { assertMay, type Viewer, viewerOf } from './viewer.ts';

/**
 * The viewer of a request to this app (its cookies, the configured anonymous access). better-auth is loaded only
 * for a request with a session cookie (see viewerOf): a route that checks access does not load it with its module.
 */
export async function viewerFor(headers: Headers): Promise<Viewer> {
  return viewerOf(async () => (await import('./auth.ts')).getAuth(), headers, config());
}

/** The viewer, if they may do `operation`; else a 401/403 AppError (route handlers answer it, actions show it). */
export async function requireAccess(headers: Headers, operation: Operation): Promise<Viewer> {
  return assertMay(await viewerFor(headers), operation);
}
