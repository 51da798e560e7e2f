/**
 * The one application error. Domain code throws `AppError` with a code; route handlers turn it into the code's
 * HTTP status (`errorResponse`), server actions into a message (`actionError`). Anything else is an internal
 * error: logged in full on the server, answered with a generic message, so no database error text or server
 * path reaches a client.
 */
import { isCrossSite } from './origin.ts';

export const ERROR_STATUS = {
  'bad-request': 400,
  unauthorized: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  'payload-too-large': 413,
  'unsupported-media-type': 415,
  /** A question or search that took longer than its time budget (lib/common/deadline.ts): shorter input helps. */
  'over-budget': 422,
  /** A client over its share (an anonymous visitor's stored answers per hour): Retry-After says when. */
  'too-many-requests': 429,
  unavailable: 503,
  internal: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * What marks an AppError, in the registry every module instance shares: Next.js loads the server start
 * (instrumentation) and the route handlers as separate instances of this module, and an error made by the retrieval
 * service the start created ("Assay is busy", a question over its time) failed the route's `instanceof` and was
 * answered as an internal error (500).
 */
const APP_ERROR = Symbol.for('assay.AppError');

export class AppError extends Error {
  readonly code: ErrorCode;
  /** For 'unavailable' and 'too-many-requests': when the client may try again (sent as Retry-After). */
  readonly retryAfterSeconds?: number;
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown; retryAfterSeconds?: number }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    if (options?.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
    Object.defineProperty(this, APP_ERROR, { value: true });
  }
  /** An AppError of any instance of this module (see APP_ERROR). */
  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[APP_ERROR] === true;
  }
  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/** An error as a client may see it: an AppError's own message, else a generic one (the details are logged). */
export function publicError(error: unknown, context = 'request'): { code: ErrorCode; status: number; message: string } {
  if (error instanceof AppError) return { code: error.code, status: error.status, message: error.message };
  console.error(`[assay] ${context} failed:`, error);
  return { code: 'internal', status: 500, message: 'something went wrong on the server; the details are in its log' };
}

/** The JSON response for an error in a route handler: `{ error, code }` with the code's status. */
export function errorResponse(error: unknown, context?: string): Response {
  const e = publicError(error, context);
  const retry = error instanceof AppError ? error.retryAfterSeconds : undefined;
  return Response.json({ error: e.message, code: e.code }, { status: e.status, ...(retry !== undefined ? { headers: { 'Retry-After': String(retry) } } : {}) });
}

/**
 * Runs a route handler, answering any error it throws as `errorResponse` does. A request that would change data is
 * first checked to come from this site (`isCrossSite`), so no route can forget it.
 */
export function handleErrors<A extends unknown[]>(handler: (...args: A) => Promise<Response>, context?: string): (...args: A) => Promise<Response> {
  return async (...args: A) => {
    try {
      if (args[0] instanceof Request && isCrossSite(args[0])) throw new AppError('forbidden', 'requests that change data are accepted only from this site');
      return await handler(...args);
    } catch (error) {
      return errorResponse(error, context);
    }
  };
}

/** What a form's server action answers: its failure (`actionError`) or a message saying what it did. */
export type ActionOutcome = { ok: false; error: string } | { ok: true; message: string } | null;

/** What a server action returns on failure, for the form to show. */
export function actionError(error: unknown, context?: string): { ok: false; error: string } {
  return { ok: false, error: publicError(error, context).message };
}

/** A zod (or any) validation failure as a 400 with its messages. */
export const badRequest = (message: string) => new AppError('bad-request', message);
export const notFound = (message: string) => new AppError('not-found', message);
