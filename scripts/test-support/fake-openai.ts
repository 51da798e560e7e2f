import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for an OpenAI-compatible server's chat completions, to test the real provider path
 * (`@ai-sdk/openai` over HTTP) without a model: every request body is recorded and answered with what `answer`
 * returns as the assistant message's content (a string as it is, anything else as JSON). A request with
 * `stream: true` is answered with server-sent events, a few characters per chunk (`chunkDelayMs` apart), the way
 * such servers stream, reporting `usage` (42 prompt and 7 completion tokens unless told otherwise).
 */
export interface FakeOpenAI {
  base: string;
  bodies: { model: string; messages: unknown[]; response_format?: unknown; stream?: boolean }[];
  close(): Promise<void>;
}

export async function startFakeOpenAI(
  answer: (body: FakeOpenAI['bodies'][number]) => unknown,
  opts: { chunkDelayMs?: number; usage?: { prompt_tokens: number; completion_tokens: number } } = {},
): Promise<FakeOpenAI> {
  const bodies: FakeOpenAI['bodies'] = [];
  const usage = opts.usage ?? { prompt_tokens: 42, completion_tokens: 7 };
  const pause = () => new Promise((r) => setTimeout(r, opts.chunkDelayMs ?? 0));
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', async () => {
      if (req.url !== '/v1/chat/completions') return res.writeHead(404).end();
      const body = JSON.parse(raw);
      bodies.push(body);
      const reply = answer(body);
      const content = typeof reply === 'string' ? reply : JSON.stringify(reply);
      if (body.stream) {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        const chunk = (delta: object, finish: string | null, usage?: object) =>
          `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 0, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }], ...(usage ? { usage } : {}) })}\n\n`;
        res.write(chunk({ role: 'assistant', content: '' }, null));
        for (let i = 0; i < content.length; i += 12) {
          res.write(chunk({ content: content.slice(i, i + 12) }, null));
          // A real model writes at its own pace; a pause between chunks lets a test watch the answer arrive.
          if (opts.chunkDelayMs) await pause();
        }
        res.write(chunk({}, 'stop', { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens }));
        res.end('data: [DONE]\n\n');
        return;
      }
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          id: 'chatcmpl-1',
          object: 'chat.completion',
          created: 0,
          model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 },
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    bodies,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
