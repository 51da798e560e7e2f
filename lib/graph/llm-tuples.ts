import { cachedObject } from '../ai/cached-object.ts';
import { z } from 'zod';
import type { ChatModel } from '../ai/providers.ts';
import { TUPLE_PROMPT_VERSION, tupleSystemPrompt, tupleUserPrompt } from '../ai/prompts.ts';
import type { ExtractionCacheStore } from '../db/extraction-cache.ts';
import { sha256 } from '../common/hash.ts';
import { lookupUnit, toCanonical, canonicalUnits } from '../structure/quantities.ts';
import { phraseToEntity, propertyObject, RELATIONS, type TupleDraft } from './tuples.ts';

/**
 * The LLM tuple backend: an ontology-constrained prompt (the relation types are an enum of the zod schema),
 * structured output through the AI SDK, answers cached by prompt version + model + paragraph hash. Malformed
 * answers are retried, then recorded as an error and thrown (the graph stage reports it; nothing is dropped
 * silently). Tuples whose evidence sentence is not in the paragraph keep no offsets; values are converted to
 * canonical units by the same unit table as everything else.
 */
export const tupleAnswer = z.object({
  reasoning: z.string(),
  tuples: z.array(
    z.object({
      subject: z.string().min(1),
      relation: z.enum(RELATIONS),
      object: z.string().min(1),
      reference_relation: z.string().nullable(),
      reference_node: z.string().nullable(),
      value: z.number().nullable(),
      unit: z.string().nullable(),
      evidence: z.string(),
    }),
  ),
});
export type TupleAnswer = z.infer<typeof tupleAnswer>;

export interface TupleExtractor {
  id: string;
  extract(text: string, paragraphId: string | null): Promise<TupleDraft[]>;
}

export function createLlmTupleExtractor(opts: { chat: ChatModel; cache: ExtractionCacheStore; attempts?: number }): TupleExtractor {
  const id = `llm:${opts.chat.id}:${TUPLE_PROMPT_VERSION}`;
  return {
    id,
    async extract(text, paragraphId) {
      const answer = await cachedObject({
        chat: opts.chat,
        cache: opts.cache,
        key: `${id}:${sha256(text)}`,
        task: 'tuples',
        schema: tupleAnswer,
        system: tupleSystemPrompt,
        prompt: tupleUserPrompt(text),
        attempts: opts.attempts,
      });
      return answer.tuples.map((t) => toDraft(text, paragraphId, t));
    },
  };
}

function toDraft(text: string, paragraphId: string | null, t: TupleAnswer['tuples'][number]): TupleDraft {
  const start = t.evidence ? text.indexOf(t.evidence) : -1;
  const spec = t.unit ? lookupUnit(t.unit) : null;
  let value = t.value;
  let unit = t.unit;
  if (value !== null && spec) {
    try {
      value = toCanonical(value, spec);
      unit = canonicalUnits[spec.dimension];
    } catch {
      // a unit the table knows but cannot convert: keep the value as stated
    }
  }
  return {
    subject: phraseToEntity(t.subject),
    relation: t.relation,
    object: t.relation === 'has_property' ? propertyObject(t.object) : phraseToEntity(t.object),
    referenceRelation: t.reference_relation,
    referenceNode: t.reference_node,
    value,
    valueMax: value,
    unit,
    paragraphId,
    recordId: null,
    sentence: start >= 0 ? t.evidence : null,
    start: start >= 0 ? start : null,
    end: start >= 0 ? start + t.evidence.length : null,
  };
}
