import { round } from '../common/trace.ts';
import type { RetrievalResult } from '../pipelines/types.ts';
import { type RecipeAnswer, type SynthesisAsk, synthesisAsk } from '../synthesis/ask.ts';
import { recipeConfidence } from '../synthesis/confidence.ts';
import { writtenName } from '../retrieval/question.ts';

/** Looks up a synthesis question's recipes (lib/synthesis/ask.ts's lookupRecipes on the app's database). */
export type RecipeLookup = ((ask: SynthesisAsk) => Promise<RecipeAnswer | null>) & {
  /** How many recipes the records hold of each material term (a refusal says so: the corpus is not silent on it). */
  counts?: (keys: string[]) => Promise<Map<string, number>>;
};

/**
 * A retrieval result with the records' recipes when the question asks how a material is made and the records hold
 * it: the synthesis shape answers from them, and the answer's confidence and refusal are the records' (a method
 * they do not hold for the material is refused; what they hold is answered however the paragraphs scored).
 */
export async function withRecipes(result: RetrievalResult, lookup: RecipeLookup): Promise<RetrievalResult> {
  const ask = synthesisAsk(result.analysis);
  if (!ask) return withRecordsHeld(result, lookup);
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
  // The records lack the route asked; that is no absence from the corpus when retrieval found a paper stating what
  // was asked, its technique check passed ("ZnCo2O4 Li-ion anode ball milling with citric acid"): that paper answers.
  const routeElsewhere = !!recipes && !recipes.summary && !!ask.method && !ask.papers && !result.abstention.abstain;
  if (!recipes || routeElsewhere) return { ...result, trace: [...result.trace, { ...step, detail: { ...step.detail, routeElsewhere } }] };
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

/**
 * A refusal about materials the corpus's paragraphs do not state what was asked of, but whose recipes the records
 * hold: the refusal says the records hold them ("not in the corpus" would be false), and that they say how the
 * material is made, not what was asked.
 */
async function withRecordsHeld(result: RetrievalResult, lookup: RecipeLookup): Promise<RetrievalResult> {
  if (!result.abstention.abstain || !lookup.counts || !result.analysis.materials.length) return result;
  const counts = await lookup.counts(result.analysis.materials);
  if (!counts.size) return result;
  const held = [...counts].map(([key, n]) => `${n} recipe${n === 1 ? '' : 's'} for ${writtenName(result.analysis, key)}`);
  const note = `The records hold ${held.join(' and ')}: they say how ${counts.size > 1 ? 'these are' : 'it is'} made, not what was asked.`;
  // "not in the corpus: LiCoO2, X" names what neither the paragraphs nor the records hold: the records' are dropped.
  const heldNames = new Set([...counts.keys()].map((k) => writtenName(result.analysis, k)));
  const explanation = result.abstention.explanation.replace(/not in the corpus: ([^;]*)(;\s*|$)/, (_, list: string, end: string) => {
    const left = list.split(/,\s*/).filter((n) => !heldNames.has(n.trim()));
    return left.length ? `not in the corpus: ${left.join(', ')}${end}` : '';
  });
  return { ...result, abstention: { ...result.abstention, explanation }, recordsNote: note };
}
