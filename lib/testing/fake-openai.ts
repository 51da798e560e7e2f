import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for an OpenAI-compatible server's chat completions, to test the real provider path
 * (`@ai-sdk/openai` over HTTP) without a model: every request body is recorded and answered with the JSON that
 * `answer` returns, as the assistant message's content.
 */
export interface FakeOpenAI {
  base: string;
  bodies: { model: string; messages: unknown[]; response_format?: unknown }[];
  close(): Promise<void>;
}

export async function startFakeOpenAI(answer: (body: FakeOpenAI['bodies'][number]) => unknown): Promise<FakeOpenAI> {
  const bodies: FakeOpenAI['bodies'] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      if (req.url !== '/v1/chat/completions') return res.writeHead(404).end();
      const body = JSON.parse(raw);
      bodies.push(body);
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          id: 'chatcmpl-1',
          object: 'chat.completion',
          created: 0,
          model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content: JSON.stringify(answer(body)) }, finish_reason: 'stop' }],
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
