import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { openTestDatabase } from '../../scripts/test-support/database.ts';
import { tempDir } from '../../scripts/test-support/fixtures.ts';
import { createAuth } from './auth.ts';
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
    expect(forged).toEqual({ user: null, role: null });
    expect(made).toBe(2);
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
