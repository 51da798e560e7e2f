import type { z } from 'zod';

/**
 * JSON over HTTP from the open scholarly web (Crossref, OpenAlex, Wikidata, Europe PMC), failing softly: every way a
 * call can go wrong — the service unreachable (offline), too slow, an HTTP error, a body that is not JSON or not in
 * the documented shape — is a `ServiceError` whose message says which service, what happened and that the rest of
 * Assay is unaffected. Calls to one host are spaced (`minIntervalMs`), the polite pace the services ask for.
 */
export class ServiceError extends Error {
  constructor(
    readonly service: string,
    readonly reason: 'unreachable' | 'timeout' | 'http' | 'malformed' | 'not-found',
    message: string,
  ) {
    super(message);
    this.name = 'ServiceError';
  }
}

export interface ServiceCall {
  /** The service's name for messages ("Crossref"). */
  service: string;
  timeoutMs: number;
  /** Least time between two calls to the same host. */
  minIntervalMs?: number;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

const nextSlot = new Map<string, number>();

/** Waits for the host's next free slot (calls to one host are spaced by `minIntervalMs`). */
async function pace(host: string, minIntervalMs: number, signal?: AbortSignal): Promise<void> {
  const now = Date.now();
  const at = Math.max(now, nextSlot.get(host) ?? 0);
  nextSlot.set(host, at + minIntervalMs);
  if (at > now) await new Promise((resolve) => setTimeout(resolve, at - now));
  signal?.throwIfAborted();
}

/** GETs `url` and validates its JSON with `schema`; a 404 is `not-found` (a DOI the service does not know). */
export async function getJson<T>(url: string, schema: z.ZodType<T>, call: ServiceCall): Promise<T> {
  const host = new URL(url).host;
  await pace(host, call.minIntervalMs ?? 0, call.signal);
  let res: Response;
  const timeout = AbortSignal.timeout(call.timeoutMs);
  try {
    res = await fetch(url, {
      signal: call.signal ? AbortSignal.any([call.signal, timeout]) : timeout,
      headers: { accept: 'application/json', ...call.headers },
    });
  } catch (error) {
    if (call.signal?.aborted) throw error;
    if (timeout.aborted) throw new ServiceError(call.service, 'timeout', `${call.service} did not answer within ${call.timeoutMs / 1000} s (${host})`);
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new ServiceError(
      call.service,
      'unreachable',
      `cannot reach ${call.service} at ${host} (${cause?.code ?? cause?.message ?? (error as Error).message})`,
    );
  }
  if (res.status === 404) throw new ServiceError(call.service, 'not-found', `${call.service} does not know ${url}`);
  if (!res.ok) throw new ServiceError(call.service, 'http', `${call.service} answered HTTP ${res.status} for ${url}`);
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    if (timeout.aborted)
      throw new ServiceError(call.service, 'timeout', `${call.service} did not finish its answer within ${call.timeoutMs / 1000} s (${host})`);
    throw new ServiceError(call.service, 'malformed', `${call.service} answered with something that is not JSON (${url})`);
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success)
    throw new ServiceError(
      call.service,
      'malformed',
      `${call.service} answered in an unexpected shape (${parsed.error.issues
        .slice(0, 2)
        .map((i) => `${i.path.join('.') || 'body'}: ${i.message}`)
        .join('; ')})`,
    );
  return parsed.data;
}

/** Least time between two calls to one host: about 8 a second, the pace Crossref, OpenAlex and Wikidata ask of a client. */
export const POLITE_INTERVAL_MS = 120;

/**
 * How a run over many items tells that a service is unreachable (offline, most likely): `limit` items in a row, or
 * every item of a shorter run. Feed it each item's outcome; it answers the length of the streak once it has decided.
 */
export function offlineStreak(items: number, limit = 3): (unreachable: boolean) => number {
  let streak = 0;
  return (unreachable) => {
    streak = unreachable ? streak + 1 : 0;
    return streak >= limit || (streak > 0 && streak === items) ? streak : 0;
  };
}
