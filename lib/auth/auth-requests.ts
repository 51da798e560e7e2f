import { CLIENT_HEADER } from '../common/request-gate.mjs';
import { readJson } from '../common/json-body.ts';
import { processObject } from '../common/process-registry.ts';
import type { Auth } from './auth.ts';
import { SignInLimits } from './sign-in-limits.ts';

/**
 * better-auth's endpoints as the app serves them (`/api/auth/…`), with what its own handler does not hold to:
 *
 * - **Sign-in limits per account and per client address** (sign-in-limits.ts) instead of one bucket per address
 *   header: a wrong password counts against the account tried and the client that sent it, a lock says when to try
 *   again (429, Retry-After), and nobody else waits.
 * - **No account enumeration through the words of a refusal:** a sign-up for an address that has an account is
 *   refused with the same words as any other sign-up that cannot be made, and counts against the client as a wrong
 *   password does, so that trying addresses one after another soon waits. (Whether an address has an account can
 *   still be learnt by a sign-up that succeeds: open sign-up without e-mail verification cannot hide that.)
 */
export async function handleAuthRequest(auth: Auth, request: Request, limits = processLimits()): Promise<Response> {
  const route = new URL(request.url).pathname.replace(/^.*\/api\/auth/, '');
  if (request.method !== 'POST' || (route !== '/sign-in/email' && route !== '/sign-up/email')) return auth.handler(request);
  const client = request.headers.get(CLIENT_HEADER) ?? 'unknown';
  let email = '';
  try {
    const body = await readJson(request.clone());
    email = typeof (body as { email?: unknown })?.email === 'string' ? (body as { email: string }).email : '';
  } catch {
    // better-auth answers a body it cannot read itself.
  }
  const wait = limits.waitSeconds(route === '/sign-in/email' ? email : null, client);
  if (wait !== null) {
    return Response.json(
      { code: 'TOO_MANY_REQUESTS', message: `Too many failed attempts for this account or from this address: try again in ${wait} s.` },
      { status: 429, headers: { 'Retry-After': String(wait) } },
    );
  }
  const response = await auth.handler(request);
  if (route === '/sign-in/email') {
    if (response.status === 401) limits.failed(email, client);
    else if (response.ok) limits.succeeded(email);
    return response;
  }
  if (response.ok) return response;
  const refusal = (await response
    .clone()
    .json()
    .catch(() => null)) as { code?: string } | null;
  if (refusal?.code?.startsWith('USER_ALREADY_EXISTS')) {
    limits.failed(null, client);
    return Response.json(
      { code: 'SIGN_UP_REFUSED', message: 'An account cannot be made with this e-mail address and password. Sign in if you have one.' },
      { status: 400 },
    );
  }
  return response;
}

declare module '../common/process-registry.ts' {
  interface ProcessObjects {
    signInLimits: SignInLimits;
  }
}

/** One count per process, whichever module instance (the route's, the start's) asks. */
const processLimits = () => processObject('signInLimits', () => new SignInLimits());
