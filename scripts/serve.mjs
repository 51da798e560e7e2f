#!/usr/bin/env node
// The HTTP server of `npm start` and `npm run dev` (and of the tests' and benches' servers): Next.js's request handler
// behind the request gate (lib/common/request-gate.mjs), which checks what Next.js's own `next start` cannot be told
// to: who the client is (never from a header a client may send), a body's length before it is read, control
// characters in any query. Usage: node scripts/serve.mjs [--dev] [-p PORT] [-H HOST]
import http from 'node:http';
import path from 'node:path';
import { CLIENT_HEADER, clientAddress, gateRefusal, gateSettings } from '../lib/common/request-gate.mjs';

const root = path.resolve(import.meta.dirname, '..');
// Whatever the server makes in its data folder is its own (lib/common/private-files.ts says why), from the start.
process.umask(0o077);
const argv = process.argv.slice(2);
const arg = (flag) => {
  const i = argv.indexOf(flag);
  return i >= 0 ? argv[i + 1] : undefined;
};
const dev = argv.includes('--dev');
const port = Number(arg('-p') ?? process.env.PORT ?? 3000);
const hostname = arg('-H') ?? process.env.ASSAY_HOST ?? '127.0.0.1';
let settings;
try {
  settings = gateSettings(process.env);
} catch (error) {
  console.error(`[assay] configuration: ${error.message}`);
  process.exit(1);
}

const escapeHtml = (s) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** The gate's refusal as the client reads it: JSON for /api/…, a short page otherwise. */
function refuse(req, res, refusal) {
  const api = (req.url ?? '').startsWith('/api/');
  const body = api
    ? JSON.stringify({ error: refusal.message, code: refusal.code })
    : `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bad request · Assay</title></head><body><h1>Request refused</h1><p>${escapeHtml(refusal.message)}.</p><p><a href="/">Back to Assay</a></p></body></html>`;
  res.writeHead(refusal.status, {
    'content-type': api ? 'application/json' : 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    'x-content-type-options': 'nosniff',
    // The body was not read: the connection is not reused for another request behind it.
    connection: 'close',
  });
  res.end(body);
}

// What `next start` / `next dev` set before Next.js loads (its CLI does it), so they are set before it is imported.
process.env.NODE_ENV ||= dev ? 'development' : 'production';
// The app reads its own address from PORT (the origins sign-in accepts, absolute links), as under `next start`.
process.env.PORT = String(port);
process.env.NEXT_RUNTIME = 'nodejs';
const { default: next } = await import('next');
const app = next({ dev, dir: root, hostname, port });
const ready = app.prepare();
const handle = app.getRequestHandler();

const server = http.createServer(async (req, res) => {
  delete req.headers[CLIENT_HEADER];
  req.headers[CLIENT_HEADER] = clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], settings.trustedProxies);
  const refusal = gateRefusal(req.url ?? '/', req.headers, settings);
  if (refusal) return refuse(req, res, refusal);
  try {
    await ready;
    await handle(req, res);
  } catch (error) {
    console.error('[assay] request failed:', error);
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
    res.end('internal error');
  }
});
// How long an idle connection is kept for the client's next request. Longer than a balancer's own idle timeout
// (60 s on most), so that the balancer, not this server, closes an idle connection: a server that closes it while
// the balancer sends a request on it makes that request fail (502). Node's 5 s default also lost requests here when a
// busy event loop ran a connection's expired timer just as its next request arrived (bench scale-out: ECONNRESET).
server.keepAliveTimeout = settings.keepAliveMs;
if (dev) server.on('upgrade', (req, socket, head) => void ready.then(() => app.getUpgradeHandler()(req, socket, head)));
server.listen(port, hostname, () => console.log(`[assay] serving http://${hostname}:${port}${dev ? ' (development)' : ''}`));
ready.catch((error) => {
  console.error('[assay] the app could not start:', error);
  process.exit(1);
});
