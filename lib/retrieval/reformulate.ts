import type { ChatModel } from '../ai/providers.ts';
import { decomposeSystemPrompt, optimiseExamples, optimiseSystemPrompt, REFORMULATION_PROMPT_VERSION, reformulationUserPrompt } from '../ai/prompts.ts';
import type { QuestionAnalysis } from './question.ts';
import { lazyOnce } from '../common/lazy.ts';

/**
 * Query reformulation (method A): (1) optimisation keeps technical terms, formulas, values with units and
 * condition words and drops the question's frame; (3) decomposition splits a question whose first retrieval
 * was insufficient (step 2, in pipelines.ts) into at most three concise sub-queries. Two implementations: rules
 * (offline default) and a language model returning JSON validated by zod; a model failure falls back to the
 * rules and says so in the trace.
 */
export interface OptimisedQuery {
  query: string;
  keywords: string[];
  removed: string[];
}

export interface Reformulator {
  id: string;
  optimise(question: string, analysis: QuestionAnalysis): Promise<OptimisedQuery>;
  decompose(question: string, analysis: QuestionAnalysis): Promise<string[]>;
}

// Question frames and filler, removed whole before word-level filtering.
const FRAMES = [
  /^\s*(?:which|what)\s+(?:paper|study|article|work|publication|report)s?\s+(?:reports?|describes?|synthesi[sz]es|prepares?|shows?|gives?|presents?|finds?|measures?|uses?)?\s*/i,
  /^\s*find\s+(?:the|a)\s+(?:study|paper|article|work|publication)\s*(?:in\s+which|that|giving|where|which|reporting)?\s*/i,
  /^\s*(?:what|which)\s+(?:is|was|are|were)\s+(?:the\s+)?/i,
  /^\s*(?:can you |please )?(?:tell me|show me|list)\s+/i,
];
const FILLER = new Set(
  (
    'a an the is are was were be been being which what who whom whose paper papers study studies article work report reports reported ' +
    'reporting describe describes described show showed shows shown give gives giving given find found please tell me does do did ' +
    'value values as that this these there their its it of for with by'
  ).split(' '),
);
// Condition words stay: they tie values to conditions ("at 823 K", "under 1.6 GPa", "in water").
const CONDITION_WORDS = new Set(['at', 'under', 'in', 'from', 'on', 'over', 'below', 'above', 'between', 'to', 'and', 'vs']);

export const rulesReformulator: Reformulator = {
  id: 'rules',
  async optimise(_question, analysis) {
    let body = analysis.body;
    const removed: string[] = [];
    for (const f of FRAMES) {
      body = body.replace(f, (frame) => {
        removed.push(...frame.trim().split(/\s+/));
        return '';
      });
    }
    const kept: string[] = [];
    for (const w of body.split(/\s+/).filter(Boolean)) {
      const bare = w.replace(/^[("“'[]+|[)"”'\],.;:?!]+$/g, '');
      if (!bare) continue;
      if (FILLER.has(bare.toLowerCase()) && !CONDITION_WORDS.has(bare.toLowerCase())) removed.push(bare);
      else kept.push(w.replace(/[?!,;:]+$/, ''));
    }
    while (kept.length && CONDITION_WORDS.has(kept[0].toLowerCase())) removed.push(kept.shift()!);
    const query = [...(analysis.title ? [analysis.title] : []), ...kept].join(' ');
    const keywords = [...analysis.entityWords, ...analysis.quantities.map((q) => q.text), ...analysis.properties];
    return { query, keywords: [...new Set(keywords)], removed };
  },
  async decompose(_question, analysis) {
    // One aspect per sub-query: the material(s) with the property, the property with the values, the
    // material(s) with the values (conditions). Only aspects the question has; at most three; no duplicates.
    const mats = analysis.entityWords.join(' ') || materialWords(analysis);
    const props = analysis.properties
      .filter((p) => p !== 'temperature' && p !== 'duration')
      .map((p) => p.replace(/-/g, ' '))
      .join(' ');
    const values = analysis.quantities.map((q) => q.text).join(' ');
    const candidates = [
      [mats, props],
      [props, values],
      [mats, values],
    ].map((parts) => parts.filter(Boolean).join(' ').trim());
    const subs = [...new Set(candidates.filter((c) => c && c.split(' ').length >= 2))];
    return subs.slice(0, 3);
  },
};

function materialWords(analysis: QuestionAnalysis): string {
  return analysis.materials.map((m) => m.slice(2)).join(' ');
}

/**
 * The AI SDK and the answers' schemas, loaded on the first model call: a retrieval worker without a model (each
 * restart starts one) never loads them (`ai` and `zod`, about 0.15 s of its start).
 */
const modelCalls = lazyOnce(async () => {
  const [{ generateText, Output }, { z }] = await Promise.all([import('ai'), import('zod')]);
  return {
    generateText,
    Output,
    optimiseAnswer: z.object({ reasoning: z.string(), query: z.string().min(1), keywords: z.array(z.string()) }),
    decomposeAnswer: z.object({ reasoning: z.string(), subQueries: z.array(z.string().min(1)).min(1).max(3) }),
  };
});

export function llmReformulator(chat: ChatModel): Reformulator {
  const examples = optimiseExamples.map((e) => `${reformulationUserPrompt(e.question)}\nAnswer: ${JSON.stringify(e.answer)}`).join('\n\n');
  return {
    id: `llm:${chat.id}:${REFORMULATION_PROMPT_VERSION}`,
    async optimise(question) {
      const { generateText, Output, optimiseAnswer } = await modelCalls();
      const { output } = await generateText({
        model: chat.model,
        system: `${optimiseSystemPrompt}\n\nExample:\n${examples}`,
        prompt: reformulationUserPrompt(question),
        output: Output.object({ schema: optimiseAnswer }),
        temperature: 0,
        maxRetries: 2,
      });
      const a = optimiseAnswer.parse(output);
      return { query: a.query, keywords: a.keywords, removed: [] };
    },
    async decompose(question) {
      const { generateText, Output, decomposeAnswer } = await modelCalls();
      const { output } = await generateText({
        model: chat.model,
        system: decomposeSystemPrompt,
        prompt: reformulationUserPrompt(question),
        output: Output.object({ schema: decomposeAnswer }),
        temperature: 0,
        maxRetries: 2,
      });
      return decomposeAnswer.parse(output).subQueries.slice(0, 3);
    },
  };
}
