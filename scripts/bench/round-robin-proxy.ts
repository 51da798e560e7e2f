import http from 'node:http';
import type net from 'node:net';

/**
 * The load balancer of `bench scale-out`: a small HTTP proxy on loopback that hands each request to the next app
 * process in turn (round robin), keeping connections to them open. What a deployment's balancer (nginx, a cloud
 * load balancer) does in front of stateless app processes; nothing here is sticky, so any process may answer any
 * question. A backend that does not answer gives the client a 502 (counted as an error by the bench); a request
 * whose kept connection was reset before it reached the backend is sent again once on a new one.
 */
export interface RoundRobinProxy {
  url: string;
  /** Requests handed to each backend so far. */
  counts: number[];
  /** Requests sent again on a new connection after their kept one was reset before an answer. */
  retried(): number;
  close(): Promise<void>;
}

export async function startRoundRobinProxy(backends: string[]): Promise<RoundRobinProxy> {
  if (backends.length === 0) throw new Error('a proxy needs at least one backend');
  const targets = backends.map((b) => new URL(b));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const counts = backends.map(() => 0);
  let next = 0;
  let retried = 0;
  const server = http.createServer((req, res) => {
    const i = next;
    next = (next + 1) % targets.length;
    counts[i]++;
    const target = targets[i];
    // The body is read whole first (the bench's are a few hundred bytes), so that it can be sent again.
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const send = (fresh: boolean) => {
        const upstream = http.request(
          { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers, agent: fresh ? false : agent },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        upstream.on('error', (error: NodeJS.ErrnoException) => {
          // A kept connection the backend closed as this request went out on it: the request never reached the app
          // (Node's documented case for `reusedSocket`), so it is sent once more on a new connection, as a
          // balancer retries a connection error.
          if (!fresh && upstream.reusedSocket && error.code === 'ECONNRESET' && !res.headersSent) {
            retried++;
            return send(true);
          }
          if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
          res.end(`proxy: backend ${target.host} failed: ${error.message}`);
        });
        upstream.end(body);
      };
      send(false);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    retried: () => retried,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}
