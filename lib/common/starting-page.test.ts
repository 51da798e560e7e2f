import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { serveStartingPage } from './starting-page.mjs';

describe('the page npm start serves while it builds the app', () => {
  it('says the app is being built on every page, answers the API with 503 building, and frees the address when closed', async () => {
    const page = await serveStartingPage({ host: '127.0.0.1', port: 0, since: Date.now() - 75_000 });
    expect(page).not.toBeNull();
    const base = `http://127.0.0.1:${page!.port}`;
    const home = await fetch(`${base}/library`);
    expect(home.status).toBe(503);
    const html = await home.text();
    expect(html).toContain('Assay is starting');
    expect(html).toContain('1 min 15 s so far');
    expect(html).toMatch(/<meta http-equiv="refresh" content="5">/);
    const health = await fetch(`${base}/api/health`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ status: 'building' });

    // A second server on a taken address is refused (null), not thrown.
    expect(await serveStartingPage({ host: '127.0.0.1', port: page!.port })).toBeNull();
    await page!.close();
    // Closed: the app can take the same address at once.
    const app = http.createServer((_, res) => res.end('app'));
    await new Promise<void>((resolve, reject) => {
      app.once('error', reject);
      app.listen(page!.port, '127.0.0.1', () => resolve());
    });
    // (On a new connection: fetch's pool still holds the one the starting page closed.)
    const body = await new Promise<string>((resolve, reject) =>
      http
        .get(`${base}/`, { agent: false }, (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => resolve(text));
        })
        .on('error', reject),
    );
    expect(body).toBe('app');
    await new Promise((r) => app.close(r));
  });
});
