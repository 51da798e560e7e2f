import type { PrismaClient } from '../db/generated/client.ts';
import { recipeCountsForTargets, recipesByIds, recipesForTargets, variantCandidates } from '../db/records.ts';
import { type Evidence, evidenceId, noMatchedFacets } from '../evidence/model.ts';
import { type QuestionAnalysis, writtenName } from '../retrieval/question.ts';
import { normaliseFormula, tidyFormula } from '../structure/formula.ts';
import { findChemicalNames } from '../structure/chemical-names.ts';
import { formulaKey, textFacets } from '../structure/terms.ts';
import { materialTerms } from '../retrieval/facets.ts';
import { boundedMemo } from '../common/bounded-memo.ts';
import { describeRecipe, methodName, type Recipe, readRecipe } from './recipe.ts';
import { routeOfSteps } from './plausibility.ts';
import { isVariant, type RecipeSummary, summariseRecipes, type Tally } from './summary.ts';

/**
 * Synthesis questions answered from the recipe catalogue: "how is X made / prepared / synthesised", "recipe for X",
 * "precursors of X", "calcination temperature of X by sol-gel" — a material, asked how it is made, not about one
 * paper. The records of that material (and its variants) are looked up by the catalogue's indexed columns, the method
 * asked keeps its own, and the answer is their summary.
 */

export interface SynthesisAsk {
  /** The material's terms (`f:…`) and how the question writes it. */
  keys: string[];
  name: string;
  /** Its formula, for recognising variants (null for a named material). */
  formula: string | null;
  /** The technique asked for (lib/structure/techniques.ts), or null: any. */
  method: string | null;
  /** What a value question asks of the recipe: a step's temperature or time. */
  focus: 'temperature' | 'time' | null;
  /** The question asks which papers made it ("Which papers report LiFePO4 made by sol-gel?"): the answer lists them. */
  papers?: boolean;
  /**
   * The other materials the question names, the precursors it says the material is made from ("LiMnPO4 prepared
   * from manganese sulfate, lithium hydroxide and phosphoric acid"): each with its keys (a hydrate's salt among them).
   */
  precursors?: { name: string; keys: string[] }[];
}

export interface RecipeAnswer {
  ask: SynthesisAsk;
  /** Recipes of the material by method, over every method the records hold. */
  held: Tally[];
  /** The summary of the recipes of the method asked; null when the records hold none by it. */
  summary: RecipeSummary | null;
  /** An evidence item for every recipe summarised, by id (`record:<id>`): the answer cites some of them. */
  evidence: Evidence[];
  /**
   * When the question names precursors: how many recipes of the method asked start from all of them (the summary is
   * then of those alone), out of how many; 0 when none does (the summary is then of every recipe, and says so).
   */
  startingFrom?: { names: string[]; recipes: number; of: number };
}

const HOW_MADE =
  /\bhow\s+(?:(?:is|are|was|were|do|does|did|can|could|would|should|to)\b.{0,80}?\b)?(?:made|make|prepared?|synthesi[sz]ed?|produced?|obtained|grown|fabricated?|formed)\b|\bhow\s+.{1,80}?\b(?:is|are|was|were|gets?|got)\s+(?:made|prepared|synthesi[sz]ed|produced|obtained|grown|fabricated|formed)\b|\brecipes?\b|\bsynthes[ie]s\s+(?:of|route|procedure|method|conditions?|protocol)\b|\b(?:route|routes|procedure|protocol)\s+(?:to|for)\b|\bpreparation\s+(?:of|method|route)\b|\bprecursors?\b|\bstarting materials?\b|\b(?:calcination|annealing|sintering|heating|firing|drying)\s+(?:temperature|time|duration|conditions?|atmosphere|step)s?\b/i;
/** Asking about one paper's synthesis ("in the paper", "reported by …") is answered from that paper, not the records. */
const ONE_PAPER = /\b(?:in|from|by|of)\s+(?:the|this|that|their|a)\s+(?:paper|study|article|work|report|publication)\b|\breported\s+by\b|\bdoi\b/i;

/** Papers asked for in the plural ("which papers", "list the studies", "all articles that …"). */
const PAPERS = /\b(?:papers|studies|articles|works|publications|reports)\b/i;
/** Made by a route the question names ("synthesized by sol-gel", "prepared via a hydrothermal route"). */
const MADE_BY = /\b(?:synthesi[sz]e[sd]?|prepared?|made|fabricated?|grown|produced?|obtained)\s+(?:\w+\s+)?(?:by|via|through|using|with)\b/i;

/**
 * How sure the reader must be that a question asks how a material is made before the records answer it (read as
 * synthesis first, and at this probability or with a method named). With 0.5, 0.96 of the bank's synthesis questions in
 * families left out of the fit reach the records (`npm run eval -- --bank`), and no other
 * bank question does; of the 1,642 development questions, 14 go to the records that did not before (keyword strings
 * describing one paper's work, "ZnCo2O4 Li-ion anode ball milling with citric acid"; "Seebeck coefficient of
 * hot-pressed SnSe", whose property the lexicon does not know) and 24 that did no longer do (a telegraphic "…,
 * calcination time" about one paper's step).
 */
export const SYNTHESIS_PROBABILITY = 0.5;

/**
 * Whether the question asks how a material is made, as the reader reads it (a method named beside the material is
 * the construction's own evidence: "calcination temperature of X by sol-gel"); one paper that made it ("Find the
 * study that prepares X starting from A and B") is retrieval's to find.
 */
export function asksHowMade(analysis: Pick<QuestionAnalysis, 'reading' | 'techniques' | 'intent' | 'quantities' | 'body'>): boolean {
  const { reading } = analysis;
  return (
    analysis.intent !== 'which-paper' &&
    reading.intent === 'synthesis' &&
    (reading.probabilities.synthesis >= SYNTHESIS_PROBABILITY || analysis.techniques.length > 0) &&
    (!statesResult(analysis) || HOW_MADE.test(analysis.body))
  );
}

/**
 * Dimensions of what a made material does, never of a step that makes it: a question stating one ("Pd impregnated
 * LSM-YSZ cathode 0.7 A/cm2 at 750 degC") describes one paper's result, and the route it names is how that paper
 * made it, not a recipe asked for.
 */
const RESULT_DIMENSIONS = new Set([
  'current-density',
  'power-density',
  'potential',
  'conductivity',
  'specific-capacity',
  'area-resistance',
  'tafel-slope',
  'specific-current',
  'specific-area',
  'mobility',
  'energy',
]);

const statesResult = (analysis: Pick<QuestionAnalysis, 'quantities'>): boolean => analysis.quantities.some((q) => RESULT_DIMENSIONS.has(q.dimension));

/** A material made as part of another ("acrylic rubber/silica hybrids", "a TiO2–graphene nanocomposite"): its own recipes are not the asked one's. */
const PART_OF = /\b(?:hybrids?|composites?|nanocomposites?|heterostructures?|heterojunctions?)\b/i;

/** A verb of making just before a material ("to get layered X", "make X", "prepare the X powder"). */
const WANTED_BEFORE =
  /\b(?:get|make|obtain|prepare|synthesi[sz]e|produce|grow|form)\s+(?:(?:a|an|the|some|pure|phase-pure|layered|single-phase|dense|nano\w*)\s+){0,2}$/i;

export function synthesisAsk(analysis: QuestionAnalysis): SynthesisAsk | null {
  if (analysis.title || !analysis.materials.length || ONE_PAPER.test(analysis.body) || PART_OF.test(analysis.body)) return null;
  // Papers in the plural that made the material (by a route): the records know every one; one paper is retrieval's.
  // How it is made is asked when the question reader reads a synthesis question, whatever its wording ("I want to
  // make X by sol-gel; which reagents should I start from?"); the wording rules below only tell the plural list.
  const asksHow = asksHowMade(analysis);
  const papers = PAPERS.test(analysis.body) && (MADE_BY.test(analysis.body) || HOW_MADE.test(analysis.body) || asksHow);
  if (!papers && !asksHow) return null;
  // The material asked about: the one the question says it wants made ("I've got Li2CO3 and Co3O4; … to get layered
  // LiCoO2"), else the first formula it writes (a precursor named after "from" is not it).
  const wanted = analysis.materials.find((m) => {
    const at = analysis.body.indexOf(writtenName(analysis, m));
    return at > 0 && WANTED_BEFORE.test(analysis.body.slice(Math.max(0, at - 40), at));
  });
  const key = wanted ?? analysis.materials.find((m) => m.startsWith('f:')) ?? analysis.materials[0];
  const name = writtenName(analysis, key);
  const parsed = key.startsWith('f:') ? normaliseFormula(tidyFormula(name)) : null;
  const focus = analysis.askedDimension === 'temperature' ? 'temperature' : analysis.askedDimension === 'time' ? 'time' : null;
  // The other materials named as what it is made from are precursors asked for ("X prepared from A, B and C", "I've
  // got A and B; … to get X"); a hydrate's keys (the hydrate, its salt) go together under its name.
  const precursors = new Map<string, { keys: string[]; at: number }>();
  const chemical = findChemicalNames(analysis.body);
  for (const m of analysis.materials) {
    const written = analysis.materialNames[m] ?? chemical.find((c) => `f:${formulaKey(c.formula)}` === m)?.text ?? m.slice(2);
    const at = analysis.body.indexOf(written);
    if (m === key || written === name || at < 0) continue;
    const start = analysis.body.indexOf(name);
    if (wanted ? true : start >= 0 && at > start && FROM.test(analysis.body.slice(start + name.length, at)))
      precursors.set(written, { keys: [...(precursors.get(written)?.keys ?? []), m], at });
  }
  return {
    keys: [key],
    name,
    formula: parsed?.formula ?? null,
    method: analysis.techniques[0] ?? null,
    focus,
    ...(papers ? { papers } : {}),
    // In the order the question names them.
    ...(precursors.size ? { precursors: [...precursors].sort((a, b) => a[1].at - b[1].at).map(([written, { keys }]) => ({ name: written, keys })) } : {}),
  };
}

/** The terms a recipe's precursor is read under, as the question's materials are (a hydrate's salt among them). */
const precursorTerms = boundedMemo((name: string): ReadonlySet<string> => {
  const f = textFacets(name);
  return materialTerms(f.formulas, f.materials);
}, 20_000);

/** Words saying what a material is made from, between its name and theirs. */
const FROM = /\b(?:from|using|with|out of|starting|precursors?|reagents?)\b/i;

/** At most this many recipes are read for one question (the most any material has at ten times the records). */
const RECIPES_READ = 2_000;

function recipeEvidence(r: Recipe, ask: SynthesisAsk, exact: boolean): Evidence {
  return {
    id: evidenceId('record', r.id),
    kind: 'record',
    text: describeRecipe(r),
    score: 1,
    coverage: null,
    matched: exact ? { ...noMatchedFacets(), materials: ask.keys, names: Object.fromEntries(ask.keys.map((k) => [k, ask.name])) } : noMatchedFacets(),
    paperId: r.paperId,
    doi: r.doi,
    section: r.kind,
    provenance: [
      { kind: 'paper', paperId: r.paperId, doi: r.doi, title: r.paperTitle },
      { kind: 'record', recordId: r.id, recordKind: r.kind },
    ],
  };
}

/** The records' answer to a synthesis question, or null when the records hold no recipe of the material. */
export async function lookupRecipes(prisma: PrismaClient, ask: SynthesisAsk): Promise<RecipeAnswer | null> {
  const elements = ask.formula ? (normaliseFormula(ask.formula)?.elements ?? []) : [];
  const rows = await recipesForTargets(prisma, ask.keys, [], RECIPES_READ);
  const exactIds = new Set(rows.map((r) => r.id));
  // Variants (doped, off-stoichiometric) are told from their target terms, and only those are read whole.
  if (ask.formula && rows.length < RECIPES_READ) {
    const candidates = await variantCandidates(prisma, ask.keys, elements);
    const variantIds = candidates
      // A formula term is the target's formula in Hill order ("f:Nb2O7Ti"), which reads as the formula it keys.
      .filter((c) => c.targetKeys.some((k) => k.startsWith('f:') && isVariant(ask.formula!, k.slice(2))))
      .map((c) => c.id);
    rows.push(...(await recipesByIds(prisma, variantIds.slice(0, RECIPES_READ - rows.length))));
  }
  // A recipe whose steps describe another route than its label is counted under the route they describe.
  const relabelledIds = new Set<string>();
  const recipes = rows.map(readRecipe).map((r) => {
    const route = routeOfSteps(r);
    if (!route) return r;
    relabelledIds.add(r.id);
    return { ...r, method: route };
  });
  if (!recipes.length) return null;
  const byMethod = new Map<string, string[]>();
  for (const r of recipes) byMethod.set(methodName(r.method), [...(byMethod.get(methodName(r.method)) ?? []), r.id]);
  const held = [...byMethod].map(([name, ids]) => ({ name, count: ids.length, recordIds: ids })).sort((a, b) => b.count - a.count);
  const byMethodAsked = ask.method ? recipes.filter((r) => r.method === ask.method) : recipes;
  // Precursors the question names: the recipes starting from all of them, when any does.
  const using = ask.precursors?.length
    ? byMethodAsked.filter((r) => ask.precursors!.every((p) => r.precursors.some((x) => p.keys.some((k) => precursorTerms(x.name).has(k)))))
    : byMethodAsked;
  const chosen = using.length ? using : byMethodAsked;
  const relabelled = chosen.filter((r) => relabelledIds.has(r.id)).length;
  return {
    ask,
    held,
    summary: chosen.length ? { ...summariseRecipes(chosen, exactIds), relabelled } : null,
    evidence: (chosen.length ? chosen : recipes).map((r) => recipeEvidence(r, ask, exactIds.has(r.id))),
    ...(ask.precursors?.length ? { startingFrom: { names: ask.precursors.map((p) => p.name), recipes: using.length, of: byMethodAsked.length } } : {}),
  };
}

/** The app's recipe lookup on a database: the recipes of a synthesis question, and how many the records hold of a material. */
export function recipeLookup(prisma: PrismaClient) {
  return Object.assign((ask: SynthesisAsk) => lookupRecipes(prisma, ask), { counts: (keys: string[]) => recipeCountsForTargets(prisma, keys) });
}
