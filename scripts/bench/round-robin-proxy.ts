import http from 'node:http';
import type net from 'node:net';

/**
 * The load balancer of `bench scale-out`: a small HTTP proxy on loopback that hands each request to the next app
 * process in turn (round robin), keeping connections to them open. What a deployment's balancer (nginx, a cloud
 * load balancer) does in front of stateless app processes; nothing here is sticky, so any process may answer any
 * question. A backend that does not answer gives the client a 502 (counted as an error by the bench).
 */
export interface RoundRobinProxy {
  url: string;
  /** Requests handed to each backend so far. */
  counts: number[];
  close(): Promise<void>;
}

export async function startRoundRobinProxy(backends: string[]): Promise<RoundRobinProxy> {
  if (backends.length === 0) throw new Error('a proxy needs at least one backend');
  const targets = backends.map((b) => new URL(b));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const counts = backends.map(() => 0);
  let next = 0;
  const server = http.createServer((req, res) => {
    const i = next;
    next = (next + 1) % targets.length;
    counts[i]++;
    const target = targets[i];
    const upstream = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`proxy: backend ${target.host} failed: ${error.message}`);
    });
    req.pipe(upstream);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}
