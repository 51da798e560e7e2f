import http from 'node:http';
import { expect, type APIRequestContext, test } from '@playwright/test';
import { shots } from './helpers.ts';

/**
 * What an attacker tries against a running server (issue 80), through the server's own front: its request gate,
 * better-auth behind the app's sign-in limits, Next.js's server actions behind their role checks.
 */
const origin = () => `http://127.0.0.1:${process.env.E2E_PORT ?? '3311'}`;
const json = (data: object, headers: Record<string, string> = {}) => ({ data, headers: { origin: origin(), ...headers } });

async function signUp(request: APIRequestContext, email: string, password: string) {
  const res = await request.post('/api/auth/sign-up/email', json({ email, password, name: email.split('@')[0] }));
  expect(res.status(), await res.text()).toBe(200);
}

test.describe('hostile clients', () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test('after sign-in the browser stays on this origin, whatever next says', async ({ page, request }) => {
    await signUp(request, 'redirect-probe@example.org', 'redirect-probe-pass');
    for (const next of ['/%5Cexample.com', '/%5C/example.com', '/%09/example.com', '//example.com', 'https://example.com/']) {
      await page.context().clearCookies();
      await page.goto(`/sign-in?next=${next}`);
      await page.getByLabel('Email').fill('redirect-probe@example.org');
      await page.getByLabel('Password').fill('redirect-probe-pass');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.getByTestId('account')).toBeVisible();
      expect(new URL(page.url()).host, next).toBe(new URL(origin()).host);
    }
  });

  test('a spoofed X-Forwarded-For buys no attempts, and the lock touches only the account attacked', async ({ request }) => {
    await signUp(request, 'locked-probe@example.org', 'the-right-password');
    await signUp(request, 'bystander@example.org', 'bystander-password');
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await request.post(
        '/api/auth/sign-in/email',
        json({ email: 'locked-probe@example.org', password: `wrong ${i}` }, { 'x-forwarded-for': `198.51.100.${i}` }),
      );
      statuses.push(res.status());
    }
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
    const right = await request.post('/api/auth/sign-in/email', json({ email: 'locked-probe@example.org', password: 'the-right-password' }));
    expect(right.status()).toBe(429);
    expect(Number(right.headers()['retry-after'])).toBeGreaterThan(0);
    // Another account, from the same (loopback) address, signs in.
    const other = await request.post('/api/auth/sign-in/email', json({ email: 'bystander@example.org', password: 'bystander-password' }));
    expect(other.status()).toBe(200);
  });

  test("an admin's server action replayed anonymously is 401, by a reader 403; nothing runs", async ({ browser, request }) => {
    // The action's id, from the admin's own page (as an attacker with an admin's page source would have it).
    const admin = await browser.newContext({ storageState: 'e2e/.auth/admin.json' });
    const html = await (await admin.request.get('/import')).text();
    await admin.close();
    const id = /\$ACTION_ID_([0-9a-f]+)/.exec(html)?.[1];
    expect(id, 'the import page holds a server action form').toBeTruthy();
    // As the browser's client calls it: the Next-Action header, the form as React encodes a FormData argument.
    const replay = (r: APIRequestContext) =>
      r.post('/import', {
        headers: { 'next-action': id!, accept: 'text/x-component', origin: origin() },
        multipart: { '1_refresh': 'all', '0': '["$K1"]' },
      });
    expect((await replay(request)).status()).toBe(401);
    await signUp(request, 'reader-probe@example.org', 'reader-probe-pass');
    const asReader = await replay(request); // the sign-up's session cookie is in this context now
    expect(asReader.status()).toBe(403);
  });

  test('bodies over the limit, or of unknown length, are refused before they are read; control characters in any query', async ({ request }) => {
    const big = await request.post('/api/answers', json({ question: 'x'.repeat(300 * 1024) }));
    expect(big.status()).toBe(413);
    expect((await big.json()).code).toBe('payload-too-large');
    // A GET with a Content-Type header is checked as any other.
    const nul = await request.get('/library?q=a%00b', { headers: { 'content-type': 'application/json' } });
    expect(nul.status()).toBe(400);
    expect((await request.get('/api/health')).status()).toBe(200);
  });

  test('an idle connection is kept longer than a balancer keeps its own (it, not the server, closes it)', async () => {
    // Read with node:http: the Keep-Alive header is the connection's, and a browser context does not show it.
    const header = await new Promise<string>((resolve, reject) => {
      http
        .get(`${origin()}/api/health`, { agent: new http.Agent({ keepAlive: true }) }, (res) => {
          res.resume();
          resolve(String(res.headers['keep-alive'] ?? ''));
        })
        .on('error', reject);
    });
    const seconds = Number(/timeout=(\d+)/.exec(header)?.[1]);
    expect(seconds, header).toBeGreaterThan(60);
  });

  test('evaluation runs and their gold answers are for signed-in accounts', async ({ page, request }) => {
    expect((await request.get('/api/evaluation/runs')).status()).toBe(401);
    await page.goto('/evaluation/runs');
    await expect(page.getByRole('heading', { name: 'Sign in to do this' })).toBeVisible();
    await page.screenshot({ path: `${shots}/evaluation-signed-out.png` });
  });
});
