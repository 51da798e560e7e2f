import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';
import type { ChatModel } from '../../lib/ai/providers.ts';

/** Token usage the mock models report (the AI SDK's v3 shape). */
const usage = {
  inputTokens: { total: 30, noCache: 30, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 12, text: 12, reasoning: undefined },
};

const streamOf = (text: string): LanguageModelV3StreamPart[] => [
  { type: 'stream-start', warnings: [] },
  { type: 'text-start', id: 't' },
  ...(text.match(/.{1,10}/gs) ?? []).map((delta): LanguageModelV3StreamPart => ({ type: 'text-delta', id: 't', delta })),
  { type: 'text-end', id: 't' },
  { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
];

/** The system and user text of a call, for mocks that answer according to what they were asked. */
export function promptText(options: LanguageModelV3CallOptions): { system: string; user: string } {
  const part = (role: string) =>
    options.prompt
      .filter((m) => m.role === role)
      .map((m) => (typeof m.content === 'string' ? m.content : m.content.map((c) => ('text' in c ? c.text : '')).join('')))
      .join('\n');
  return { system: part('system'), user: part('user') };
}

/** A mock chat model (the AI SDK's test model, never a real one) whose streamed and generated replies are computed from the call. */
export function mockChatModel(reply: (call: { system: string; user: string }) => string, id = 'mock/model'): ChatModel {
  return {
    id,
    model: new MockLanguageModelV3({
      doStream: async (options) => ({ stream: convertArrayToReadableStream(streamOf(reply(promptText(options)))) }),
      doGenerate: async (options) => ({
        content: [{ type: 'text', text: reply(promptText(options)) }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage,
        warnings: [],
      }),
    }),
  };
}
