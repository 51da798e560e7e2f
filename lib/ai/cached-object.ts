import { generateText, Output } from 'ai';
import type { z } from 'zod';
import type { ExtractionCacheStore } from '../db/extraction-cache.ts';
import type { ChatModel } from './providers.ts';

/** The model gave no answer matching the schema, even after retries (the error is also cached). */
export class ExtractionError extends Error {}

/**
 * One zod-validated JSON answer from the chat model, cached under `key`: a cached answer is returned without a
 * call; otherwise up to `attempts` calls (each with the SDK's own network retries), then the last error is
 * recorded in the cache and thrown as an ExtractionError — never dropped silently.
 */
export async function cachedObject<S extends z.ZodType>(opts: {
  chat: ChatModel;
  cache: ExtractionCacheStore;
  key: string;
  task: string;
  schema: S;
  system: string;
  prompt: string;
  attempts?: number;
}): Promise<z.infer<S>> {
  const cached = (await opts.cache.get(opts.key)) as z.infer<S> | null;
  if (cached) return cached;
  const attempts = opts.attempts ?? 3;
  let lastError = '';
  for (let i = 0; i < attempts; i++) {
    try {
      const { output } = await generateText({
        model: opts.chat.model,
        system: opts.system,
        prompt: opts.prompt,
        output: Output.object({ schema: opts.schema }),
        temperature: 0,
        maxRetries: 2, // network-level retries inside the SDK
      });
      const answer = opts.schema.parse(output) as z.infer<S>;
      await opts.cache.putOk(opts.key, opts.task, opts.chat.id, answer);
      return answer;
    } catch (error) {
      lastError = (error as Error).message;
    }
  }
  await opts.cache.putError(opts.key, opts.task, opts.chat.id, lastError);
  throw new ExtractionError(`the model gave no valid answer after ${attempts} attempts: ${lastError}`);
}
