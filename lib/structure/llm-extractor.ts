import { cachedObject } from '../ai/cached-object.ts';
import { z } from 'zod';
import type { ChatModel } from '../ai/providers.ts';
import { STRUCTURE_PROMPT_VERSION, structureSystemPrompt, structureUserPrompt } from '../ai/prompts.ts';
import type { ExtractionCacheStore } from '../db/extraction-cache.ts';
import { sha256 } from '../common/hash.ts';
import { materialKey } from './materials.ts';
import { normaliseFormula, tidyFormula } from './formula.ts';
import { parseQuantities } from './quantities.ts';
import { describeConditions, describePerformance, type ParagraphStructure, type StructureExtractor } from './paragraph.ts';
import { ENTITY_ROLES, type EntityMention } from './entities.ts';
import { PARAGRAPH_ROLES, SYNTHESIS_METHODS } from './classify.ts';

const roleEnum = z.enum(PARAGRAPH_ROLES);
const methodEnum = z.enum(SYNTHESIS_METHODS);
export const structureAnswer = z.object({
  reasoning: z.string(),
  role: roleEnum,
  method: methodEnum.nullable(),
  entities: z.array(z.object({ role: z.enum(ENTITY_ROLES), text: z.string().min(1) })),
});
export type StructureAnswer = z.infer<typeof structureAnswer>;

/**
 * The LLM structuring backend: few-shot prompt with a reasoning field, answer validated against a zod schema
 * through the AI SDK's structured output. Outputs are cached by prompt version + model + paragraph hash;
 * malformed output is retried, then recorded as an error (never dropped silently). Quantities, conditions and
 * performance claims are still read by the deterministic parsers so numbers are never invented.
 */
export function createLlmExtractor(opts: { chat: ChatModel; cache: ExtractionCacheStore; attempts?: number }): StructureExtractor {
  const id = `llm:${opts.chat.id}:${STRUCTURE_PROMPT_VERSION}`;
  return {
    id,
    async structureParagraph(text: string): Promise<ParagraphStructure> {
      const answer = await cachedObject({
        chat: opts.chat,
        cache: opts.cache,
        key: `${id}:${sha256(text)}`,
        task: 'structure',
        schema: structureAnswer,
        system: structureSystemPrompt,
        prompt: structureUserPrompt(text),
        attempts: opts.attempts,
      });
      return toStructure(text, answer);
    },
  };
}

/** Model answer → the same structure the offline extractor gives; entity offsets found in the text. */
export function toStructure(text: string, answer: StructureAnswer): ParagraphStructure {
  const synthesis = answer.role === 'synthesis';
  const entities: EntityMention[] = [];
  if (synthesis) {
    for (const e of answer.entities) {
      const start = text.indexOf(e.text);
      if (start < 0) continue; // not in the paragraph: a model may paraphrase; only located evidence is kept
      entities.push({
        role: e.role,
        text: e.text,
        start,
        end: start + e.text.length,
        key: materialKey(e.text),
        formula: normaliseFormula(tidyFormula(e.text))?.formula ?? null,
      });
    }
  }
  const quantities = parseQuantities(text);
  return {
    role: answer.role,
    method: synthesis ? (answer.method ?? 'others') : null,
    entities,
    quantities,
    conditions: synthesis ? describeConditions(text, quantities) : null,
    performance: answer.role === 'synthesis' ? [] : describePerformance(text, quantities),
  };
}
