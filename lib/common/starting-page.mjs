import http from 'node:http';

/**
 * While `npm start` builds the app (minutes on a small machine: the first start of a checkout, or changed sources),
 * the app's address serves one page saying so, which reloads itself every few seconds until the app answers in its
 * place, and `/api/...` answers 503 `{ status: "building" }` (a health check sees the app is not up). Closed, every
 * connection with it, before the app starts on the same address. Plain JavaScript: it runs before any build exists.
 * Resolves to null when the address is taken (the app's own start then says so).
 */
export function serveStartingPage({ host, port, since = Date.now() }) {
  const server = http.createServer((req, res) => {
    const seconds = Math.round((Date.now() - since) / 1000);
    res.setHeader('cache-control', 'no-store');
    res.setHeader('retry-after', '5');
    if (req.url?.startsWith('/api/')) {
      res.writeHead(503, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ status: 'building', seconds, message: 'Assay is being built for this machine; it serves once the build has finished' }));
    }
    res.writeHead(503, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="5"><title>Assay is starting</title>
<style>body{font-family:system-ui,sans-serif;margin:3rem auto;max-width:40rem;color:#0f172a;padding:0 1rem}p{color:#334155}</style></head>
<body data-state="building"><h1>Assay is starting</h1><p>The app is being built for this machine (the first start of a checkout, or its
sources changed): ${Math.floor(seconds / 60)} min ${seconds % 60} s so far, a few minutes on a small machine. This page reloads itself and
becomes the app as soon as it serves; the build's progress is in the terminal that ran <code>npm start</code>.</p></body></html>`);
  });
  return new Promise((resolve) => {
    server.once('error', () => resolve(null));
    server.listen(port, host, () =>
      resolve({
        port: server.address().port,
        close: () =>
          new Promise((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      }),
    );
  });
}
