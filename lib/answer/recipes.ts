import { round } from '../common/trace.ts';
import type { RetrievalResult } from '../pipelines/types.ts';
import { type RecipeAnswer, type SynthesisAsk, synthesisAsk } from '../synthesis/ask.ts';
import { recipeConfidence } from '../synthesis/confidence.ts';

/** Looks up a synthesis question's recipes (lib/synthesis/ask.ts's lookupRecipes on the app's database). */
export type RecipeLookup = (ask: SynthesisAsk) => Promise<RecipeAnswer | null>;

/**
 * A retrieval result with the records' recipes when the question asks how a material is made and the records hold
 * it: the synthesis shape answers from them, and the answer's confidence and refusal are the records' (a method
 * they do not hold for the material is refused; what they hold is answered however the paragraphs scored).
 */
export async function withRecipes(result: RetrievalResult, lookup: RecipeLookup): Promise<RetrievalResult> {
  const ask = synthesisAsk(result.analysis);
  if (!ask) return result;
  const t = performance.now();
  const recipes = await lookup(ask);
  const step = {
    step: 'recipes',
    ms: round(performance.now() - t),
    detail: {
      material: ask.name,
      method: ask.method,
      held: recipes?.held.map((h) => `${h.count} ${h.name}`) ?? [],
      summarised: recipes?.summary?.total ?? 0,
    },
  };
  if (!recipes) return { ...result, trace: [...result.trace, step] };
  const abstention = recipes.summary
    ? { ...result.abstention, abstain: false, reasons: [], calibrated: recipeConfidence(recipes.summary), explanation: '' }
    : {
        ...result.abstention,
        abstain: true,
        reasons: ['unmatched-method' as const],
        explanation: `the records hold recipes for ${ask.name}, none by ${ask.method}`,
      };
  return { ...result, recipes, abstention, trace: [...result.trace, step] };
}
