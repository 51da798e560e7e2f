import { APICallError, type RerankingModelV3 } from '@ai-sdk/provider';
import { z } from 'zod';

/**
 * A cross-encoder re-ranker behind the `/rerank` endpoint that most self-hosted servers expose in the
 * Cohere/Jina shape (vLLM, Hugging Face TEI, Infinity, llama.cpp): POST {model, query, documents, top_n} →
 * {results: [{index, relevance_score}]}. `@ai-sdk/openai` has no reranking model (OpenAI offers none), so this
 * small adapter implements the AI SDK's RerankingModelV3 and is called through `rerank()` from `ai` like any
 * provider's. Errors are APICallErrors (retryable for 408/429/5xx, which `rerank()` retries).
 */
const responseSchema = z.object({
  results: z.array(z.object({ index: z.number().int().min(0), relevance_score: z.number() })),
});

export function httpRerankingModel(opts: { baseUrl: string; apiKey?: string; model: string; fetch?: typeof fetch }): RerankingModelV3 {
  const url = `${opts.baseUrl.replace(/\/+$/, '')}/rerank`;
  const doFetch = opts.fetch ?? fetch;
  return {
    specificationVersion: 'v3',
    provider: `rerank:${new URL(opts.baseUrl).host}`,
    modelId: opts.model,
    async doRerank({ documents, query, topN, abortSignal, headers }) {
      const texts = documents.type === 'text' ? documents.values : documents.values.map((v) => JSON.stringify(v));
      const body = { model: opts.model, query, documents: texts, top_n: topN ?? texts.length, return_documents: false };
      let res: Response;
      try {
        res = await doFetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {}), ...headers },
          body: JSON.stringify(body),
          signal: abortSignal,
        });
      } catch (error) {
        throw new APICallError({
          message: `rerank request failed: ${(error as Error).message}`,
          url,
          requestBodyValues: body,
          cause: error,
          isRetryable: true,
        });
      }
      const text = await res.text();
      if (!res.ok) {
        throw new APICallError({
          message: `rerank endpoint answered HTTP ${res.status}: ${text.slice(0, 200)}`,
          url,
          requestBodyValues: body,
          statusCode: res.status,
          responseBody: text,
          isRetryable: res.status === 408 || res.status === 429 || res.status >= 500,
        });
      }
      let parsed: z.infer<typeof responseSchema>;
      try {
        parsed = responseSchema.parse(JSON.parse(text));
      } catch (error) {
        throw new APICallError({
          message: `rerank endpoint returned an unexpected body: ${(error as Error).message.slice(0, 200)}`,
          url,
          requestBodyValues: body,
          statusCode: res.status,
          responseBody: text,
          isRetryable: false,
        });
      }
      const ranking = parsed.results
        .filter((r) => r.index < texts.length)
        .map((r) => ({ index: r.index, relevanceScore: r.relevance_score }))
        .sort((a, b) => b.relevanceScore - a.relevanceScore);
      return { ranking };
    },
  };
}
