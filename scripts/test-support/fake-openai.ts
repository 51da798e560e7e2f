import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A text's vector from the embeddings endpoint: its letters' counts (a-z), so similar texts are near. */
function letterVector(text: string): number[] {
  const v = new Array(26).fill(0);
  for (const c of text.toLowerCase()) {
    const i = c.charCodeAt(0) - 97;
    if (i >= 0 && i < 26) v[i]++;
  }
  v[0] += 1;
  return v;
}

/**
 * A local stand-in for an OpenAI-compatible server's chat completions and embeddings, to test the real provider path
 * (`@ai-sdk/openai` over HTTP) without a model: every request body is recorded and answered with what `answer`
 * returns as the assistant message's content (a string as it is, anything else as JSON). A request with
 * `stream: true` is answered with server-sent events, a few characters per chunk (`chunkDelayMs` apart), the way
 * such servers stream, reporting `usage` (42 prompt and 7 completion tokens unless told otherwise).
 */
export interface FakeOpenAI {
  base: string;
  bodies: { model: string; messages: unknown[]; response_format?: unknown; stream?: boolean }[];
  /** Every text the embeddings endpoint was asked for, in the order asked (a text asked twice is here twice). */
  embedded: string[];
  close(): Promise<void>;
}

export async function startFakeOpenAI(
  answer: (body: FakeOpenAI['bodies'][number]) => unknown,
  opts: { chunkDelayMs?: number; usage?: { prompt_tokens: number; completion_tokens: number }; embeddingDelayMs?: number } = {},
): Promise<FakeOpenAI> {
  const bodies: FakeOpenAI['bodies'] = [];
  const embedded: string[] = [];
  // The embeddings endpoint as OpenAI documents it: `input` a string or a list, one `data` item per input in order.
  const answerEmbeddings = async (body: { model: string; input: string | string[] }, res: http.ServerResponse) => {
    const inputs = Array.isArray(body.input) ? body.input : [body.input];
    if (opts.embeddingDelayMs) await new Promise((r) => setTimeout(r, opts.embeddingDelayMs));
    embedded.push(...inputs);
    res.setHeader('content-type', 'application/json');
    res.end(
      JSON.stringify({
        object: 'list',
        model: body.model,
        data: inputs.map((text, index) => ({ object: 'embedding', index, embedding: letterVector(text) })),
        usage: { prompt_tokens: inputs.length, total_tokens: inputs.length },
      }),
    );
  };
  const usage = opts.usage ?? { prompt_tokens: 42, completion_tokens: 7 };
  const pause = () => new Promise((r) => setTimeout(r, opts.chunkDelayMs ?? 0));
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', async () => {
      if (req.url === '/v1/embeddings') return answerEmbeddings(JSON.parse(raw), res);
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
    embedded,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
