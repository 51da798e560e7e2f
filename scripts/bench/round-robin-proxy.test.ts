import http from 'node:http';
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { startRoundRobinProxy } from './round-robin-proxy.ts';

const servers: (http.Server | net.Server)[] = [];
afterAll(() => {
  for (const s of servers) s.close();
});

/** A backend that answers with its name and the request's method, path and body. */
async function backend(name: string): Promise<string> {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => {
      body += d;
    });
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-backend': name });
      res.end(JSON.stringify({ name, method: req.method, path: req.url, body }));
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
}

describe('the round-robin proxy of bench scale-out', () => {
  it('hands requests to its backends in turn, with their method, path, body and answer', async () => {
    const proxy = await startRoundRobinProxy([await backend('a'), await backend('b'), await backend('c')]);
    try {
      const names: string[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await fetch(`${proxy.url}/api/retrieve?x=${i}`, { method: 'POST', body: `{"q":${i}}` });
        const got = (await res.json()) as { name: string; method: string; path: string; body: string };
        expect(got).toMatchObject({ method: 'POST', path: `/api/retrieve?x=${i}`, body: `{"q":${i}}` });
        expect(res.headers.get('x-backend')).toBe(got.name);
        names.push(got.name);
      }
      expect(names).toEqual(['a', 'b', 'c', 'a', 'b', 'c']);
      expect(proxy.counts).toEqual([2, 2, 2]);
    } finally {
      await proxy.close();
    }
  });

  it('answers 502 for a backend that does not answer, and goes on with the others', async () => {
    const proxy = await startRoundRobinProxy(['http://127.0.0.1:1', await backend('up')]);
    try {
      expect((await fetch(`${proxy.url}/`)).status).toBe(502);
      expect((await fetch(`${proxy.url}/`)).status).toBe(200);
    } finally {
      await proxy.close();
    }
  });

  it('sends a request again on a new connection when its kept one is reset before an answer', async () => {
    // A backend on a raw socket, so that it can do what a server whose idle timer fires as a request arrives does:
    // the first request of a connection is answered (kept alive), a second one on it is reset unread.
    let answered = 0;
    let connections = 0;
    const server = net.createServer((socket) => {
      connections++;
      let requests = 0;
      let text = '';
      socket.on('data', (d: Buffer) => {
        text += d.toString();
        const head = text.indexOf('\r\n\r\n');
        if (head < 0) return;
        const length = Number(/content-length: (\d+)/i.exec(text.slice(0, head))?.[1] ?? 0);
        if (text.length < head + 4 + length) return;
        const body = text.slice(head + 4, head + 4 + length);
        text = '';
        if (++requests > 1) return socket.destroy();
        answered++;
        socket.write(`HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\nconnection: keep-alive\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      });
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const proxy = await startRoundRobinProxy([`http://127.0.0.1:${(server.address() as net.AddressInfo).port}`]);
    try {
      for (const body of ['first', 'second']) {
        const res = await fetch(`${proxy.url}/`, { method: 'POST', body });
        expect(res.status).toBe(200);
        expect(await res.text()).toBe(body);
      }
      expect(proxy.retried()).toBe(1);
      expect(answered).toBe(2);
      expect(connections).toBe(2);
    } finally {
      await proxy.close();
    }
  });
});
