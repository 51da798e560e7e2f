import { createOpenAI } from '@ai-sdk/openai';
import type { EmbeddingModelV3, RerankingModelV3 } from '@ai-sdk/provider';
import { httpRerankingModel } from './rerankers/http-rerank.ts';
import type { LanguageModel } from 'ai';
import type { AssayConfig } from '../config.ts';

/**
 * The one place that decides which model serves which purpose. Any OpenAI-compatible server (vLLM, Ollama,
 * llama.cpp, LM Studio, OpenAI …) through `@ai-sdk/openai`'s chat-completions API. Returns null when nothing
 * is configured: callers then use their offline path and never pretend to have a model.
 */
export interface ChatModel {
  model: LanguageModel;
  /** Provider + model name, stored with every cached output so a change of model re-extracts. */
  id: string;
  /** US dollars per million prompt / completion tokens, when configured: answers then show what they cost. */
  price?: { inputPerMTok: number; outputPerMTok: number } | null;
}

/** What a reply cost at the model's configured price, in US dollars; null when no price is configured. */
export function costOf(model: Pick<ChatModel, 'price'>, tokens: { prompt: number; completion: number }): number | null {
  if (!model.price) return null;
  return (tokens.prompt * model.price.inputPerMTok + tokens.completion * model.price.outputPerMTok) / 1e6;
}

export function chatModel(cfg: AssayConfig): ChatModel | null {
  if (!cfg.llm) return null;
  const provider = createOpenAI({ baseURL: cfg.llm.baseUrl, apiKey: cfg.llm.apiKey || 'not-needed' });
  return { model: provider.chat(cfg.llm.chatModel), id: `${new URL(cfg.llm.baseUrl).host}/${cfg.llm.chatModel}` };
}

export interface EmbeddingProviderModel {
  model: EmbeddingModelV3;
  /** Provider + model name, stored with every vector so a change of model re-embeds. */
  id: string;
}

/** The configured provider embedding model, or null (the local embedder is used). */
export function embeddingModel(cfg: AssayConfig): EmbeddingProviderModel | null {
  if (!cfg.embedding) return null;
  const provider = createOpenAI({ baseURL: cfg.embedding.baseUrl, apiKey: cfg.embedding.apiKey || 'not-needed' });
  return { model: provider.embedding(cfg.embedding.model), id: `${new URL(cfg.embedding.baseUrl).host}/${cfg.embedding.model}` };
}

export interface RerankingProviderModel {
  model: RerankingModelV3;
  id: string;
}

/** The configured cross-encoder re-ranker, or null (the graph pipeline's offline re-ranker is used). */
export function rerankingModel(cfg: AssayConfig): RerankingProviderModel | null {
  if (!cfg.rerank) return null;
  return {
    model: httpRerankingModel({ baseUrl: cfg.rerank.baseUrl, apiKey: cfg.rerank.apiKey, model: cfg.rerank.model }),
    id: `${new URL(cfg.rerank.baseUrl).host}/${cfg.rerank.model}`,
  };
}

/** A chat model of the given name on the configured OpenAI-compatible server. */
function namedChatModel(cfg: AssayConfig, name: string | null): ChatModel | null {
  if (!cfg.llm || !name) return null;
  const provider = createOpenAI({ baseURL: cfg.llm.baseUrl, apiKey: cfg.llm.apiKey || 'not-needed' });
  return { model: provider.chat(name), id: `${new URL(cfg.llm.baseUrl).host}/${name}` };
}

/** The model that writes answers (ASSAY_ANSWER_MODEL, else the chat model), or null: answers are then extractive. */
export function answerModel(cfg: AssayConfig): ChatModel | null {
  const model = namedChatModel(cfg, cfg.answerModel);
  return model && { ...model, price: cfg.answerPrice };
}

/** The model that judges answers (ASSAY_JUDGE_MODEL), or null: only the offline claim checks run. */
export function judgeModel(cfg: AssayConfig): ChatModel | null {
  return namedChatModel(cfg, cfg.judgeModel);
}
