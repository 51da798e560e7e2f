import { expect, type Page } from '@playwright/test';

export const shots = 'e2e/screenshots';

/** Asks a question on /answers and waits for the stored answer's own page. */
export async function askOnAnswersPage(page: Page, question: string) {
  await page.goto('/answers');
  await page.getByLabel('Question', { exact: true }).fill(question);
  await page.getByRole('button', { name: 'Ask' }).click();
  await page.waitForURL(/\/answers\/[a-z0-9]+$/);
}

/** The first-start import of ASSAY_CORPUS runs in the background: wait until it has finished. */
export async function waitForCorpus(page: Page) {
  await expect.poll(async () => (await (await page.request.get('/api/health')).json()).papers, { timeout: 60_000 }).toBeGreaterThanOrEqual(46);
}

/** The metadata job queued after the first-start import has asked the (fake) Crossref and OpenAlex. */
export async function waitForMetadata(page: Page) {
  await expect
    .poll(async () => ((await (await page.request.get('/api/health')).json()).metadata?.ok ?? 0) as number, { timeout: 60_000 })
    .toBeGreaterThanOrEqual(1);
}

/**
 * Signs in to a server as its admin, creating the account first when the instance has none (the first account
 * becomes admin). Returns the cookie header for fetch and the cookies for a browser context.
 */
export async function adminSession(base: string, email = 'admin@example.org', password = 'e2e-admin-password') {
  const post = (what: string, body: object) =>
    fetch(`${base}/api/auth/${what}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: base }, body: JSON.stringify(body) });
  let res = await post('sign-in/email', { email, password });
  if (!res.ok) res = await post('sign-up/email', { email, password, name: 'Admin' });
  if (!res.ok) throw new Error(`could not sign in as admin on ${base}: ${res.status} ${await res.text()}`);
  const pairs = res.headers.getSetCookie().map((c) => c.split(';')[0]);
  return {
    header: pairs.join('; '),
    cookies: pairs.map((p) => {
      const i = p.indexOf('=');
      return { name: p.slice(0, i), value: p.slice(i + 1), url: base };
    }),
  };
}
