import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { openTestDatabase } from '../../scripts/test-support/database.ts';
import { tempDir } from '../../scripts/test-support/fixtures.ts';
import { handleAuthRequest } from './auth-requests.ts';
import { createAuth } from './auth.ts';
import { SignInLimits } from './sign-in-limits.ts';
import { assertMay, may, viewerOf } from './viewer.ts';

let db: Database;
let auth: ReturnType<typeof createAuth>;
const cfg = readConfig({ ASSAY_DATA_DIR: tempDir('assay-auth-') });

beforeAll(async () => {
  db = await openTestDatabase();
  auth = createAuth(db, cfg);
});
afterAll(() => db.close());

/** Signs up through the HTTP handler, as a browser does, and returns the session cookie. */
async function signUp(email: string, name = email.split('@')[0]): Promise<Headers> {
  const res = await auth.handler(
    new Request('http://127.0.0.1:3000/api/auth/sign-up/email', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://127.0.0.1:3000' },
      body: JSON.stringify({ email, password: 'correct horse battery', name }),
    }),
  );
  expect(res.status, await res.clone().text()).toBe(200);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return new Headers({ cookie });
}

describe('accounts (better-auth on the database)', () => {
  it('makes the first account admin and later ones readers; sessions live in the database', async () => {
    const first = await signUp('ada@example.org');
    const second = await signUp('ben@example.org');
    const admin = await viewerOf(auth, first, cfg);
    const reader = await viewerOf(auth, second, cfg);
    expect(admin.user?.role).toBe('admin');
    expect(reader.user?.role).toBe('reader');
    expect(await db.prisma.session.count()).toBe(2);
    expect(may(reader, 'ask')).toBe(true);
    expect(may(reader, 'grade')).toBe(false);
    expect(() => assertMay(reader, 'import')).toThrow(/admin role/);
  });

  it('lets an admin change a role (the admin plugin, in a transaction) and refuses a reader', async () => {
    const adminHeaders = await signIn('ada@example.org');
    const ben = await db.prisma.user.findUniqueOrThrow({ where: { email: 'ben@example.org' } });
    await auth.api.setRole({ headers: adminHeaders, body: { userId: ben.id, role: 'expert' } });
    const benHeaders = await signIn('ben@example.org');
    expect((await viewerOf(auth, benHeaders, cfg)).user?.role).toBe('expert');
    await expect(auth.api.setRole({ headers: benHeaders, body: { userId: ben.id, role: 'admin' } })).rejects.toThrow();
    await expect(auth.api.setRole({ headers: adminHeaders, body: { userId: ben.id, role: 'superuser' as 'admin' } })).rejects.toThrow();
  });

  it('treats anonymous visitors as readers only when configured so', async () => {
    expect((await viewerOf(auth, new Headers(), cfg)).role).toBe('reader');
    const closed = await viewerOf(auth, new Headers(), { anonymous: 'none' });
    expect(closed.role).toBeNull();
    expect(() => assertMay(closed, 'read')).toThrow(/sign in/);
  });

  it('reads a session only from a request with a session cookie, and makes better-auth only then', async () => {
    let made = 0;
    const lazily = async () => {
      made++;
      return auth;
    };
    // No cookie, or only others: anonymous, and better-auth is never asked for.
    expect((await viewerOf(lazily, new Headers(), cfg)).user).toBeNull();
    expect((await viewerOf(lazily, new Headers({ cookie: 'theme=dark; other=1' }), cfg)).role).toBe('reader');
    expect(made).toBe(0);
    // A signed-in browser's cookie: the account, through better-auth.
    const ada = await signIn('ada@example.org');
    expect((await viewerOf(lazily, ada, cfg)).user?.email).toBe('ada@example.org');
    expect(made).toBe(1);
    // A forged or expired session cookie is looked up and found wanting: anonymous.
    const forged = await viewerOf(lazily, new Headers({ cookie: 'better-auth.session_token=not-a-session.signature' }), { anonymous: 'none' });
    expect(forged).toMatchObject({ user: null, role: null });
    expect(made).toBe(2);
  });
});

describe("sign-in limits and sign-up refusals, through the app's auth handler", () => {
  const post = (route: string, body: object, client: string) =>
    new Request(`http://127.0.0.1:3000/api/auth${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://127.0.0.1:3000', 'x-assay-client': client },
      body: JSON.stringify(body),
    });

  it('locks the account attacked after a few wrong passwords from any addresses; others still sign in', async () => {
    await signUp('cleo@example.org');
    const limits = new SignInLimits();
    // Thirty wrong passwords, each from another address (what a spoofed header used to buy).
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const res = await handleAuthRequest(auth, post('/sign-in/email', { email: 'cleo@example.org', password: `guess ${i}` }, `198.51.100.${i}`), limits);
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(new Set(statuses.slice(5))).toEqual(new Set([429]));
    // Then the right password: still waiting, with how long said.
    const right = await handleAuthRequest(auth, post('/sign-in/email', { email: 'cleo@example.org', password: 'correct horse battery' }, '192.0.2.7'), limits);
    expect(right.status).toBe(429);
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await right.json()).message).toMatch(/try again in \d+ s/);
    // Another user, from one of the attacker's addresses or their own, is not locked out.
    const ada = await handleAuthRequest(auth, post('/sign-in/email', { email: 'ada@example.org', password: 'correct horse battery' }, '198.51.100.3'), limits);
    expect(ada.status).toBe(200);
  });

  it('a sign-up for an address with an account is refused in the words of any refusal, and counts against the client', async () => {
    const limits = new SignInLimits({ accountFailures: 5, clientFailures: 3, windowMs: 60_000, baseLockMs: 30_000, maxLockMs: 60_000, maxEntries: 100 });
    const taken = await handleAuthRequest(
      auth,
      post('/sign-up/email', { email: 'ada@example.org', password: 'another password 1', name: 'x' }, '203.0.113.5'),
      limits,
    );
    expect(taken.status).toBe(400);
    const body = await taken.json();
    expect(body.message).not.toMatch(/exist/i);
    expect(body.code).toBe('SIGN_UP_REFUSED');
    for (let i = 0; i < 2; i++)
      await handleAuthRequest(auth, post('/sign-up/email', { email: 'ben@example.org', password: 'another password 1', name: 'x' }, '203.0.113.5'), limits);
    // That client now waits, even for an address that is free; another client does not.
    const next = await handleAuthRequest(
      auth,
      post('/sign-up/email', { email: 'dora@example.org', password: 'another password 1', name: 'x' }, '203.0.113.5'),
      limits,
    );
    expect(next.status).toBe(429);
    const other = await handleAuthRequest(
      auth,
      post('/sign-up/email', { email: 'dora@example.org', password: 'another password 1', name: 'x' }, '192.0.2.9'),
      limits,
    );
    expect(other.status).toBe(200);
  });
});

async function signIn(email: string): Promise<Headers> {
  const res = await auth.handler(
    new Request('http://127.0.0.1:3000/api/auth/sign-in/email', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://127.0.0.1:3000' },
      body: JSON.stringify({ email, password: 'correct horse battery' }),
    }),
  );
  expect(res.status).toBe(200);
  return new Headers({
    cookie: res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; '),
  });
}
