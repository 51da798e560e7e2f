import { handleErrors } from '../common/errors.ts';
import type { Operation } from './roles.ts';
import { requireAccess } from './session.ts';
import type { Viewer } from './viewer.ts';

/**
 * A route handler that runs only for viewers who may do `operation` (401/403 JSON otherwise), with the same error
 * path and same-origin check as every handler (`handleErrors`). Every route handler but health and better-auth's
 * own is declared through this, so none can forget the role check (app/access.test.ts enumerates them).
 */
export function guarded<C>(
  operation: Operation,
  handler: (request: Request, context: C, viewer: Viewer) => Promise<Response>,
  context?: string,
): (request: Request, ctx: C) => Promise<Response> {
  return handleErrors(async (request: Request, ctx: C) => handler(request, ctx, await requireAccess(request.headers, operation)), context);
}
