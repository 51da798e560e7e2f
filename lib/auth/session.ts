import { config } from '../config.ts';
import { getAuth } from './auth.ts';
import type { Operation } from './roles.ts';
import { assertMay, type Viewer, viewerOf } from './viewer.ts';

/** The viewer of a request to this app (its cookies, the configured anonymous access). */
export async function viewerFor(headers: Headers): Promise<Viewer> {
  return viewerOf(await getAuth(), headers, config());
}

/** The viewer, if they may do `operation`; else a 401/403 AppError (route handlers answer it, actions show it). */
export async function requireAccess(headers: Headers, operation: Operation): Promise<Viewer> {
  return assertMay(await viewerFor(headers), operation);
}
