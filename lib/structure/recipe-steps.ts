import { splitSentences } from './sentences.ts';

/**
 * The steps of a synthesis paragraph as the material rules (entities.ts) read them: its sentences, cut where a sentence
 * goes on to another step, each with what it does — cleans a support, washes a product, tests it or lists where the
 * chemicals came from (no reagent of the recipe there), weighs in starting materials, or makes and names a product.
 */

const CLEANING =
  /\b(?:clean(?:ed|ing)?|pre-?treat(?:ed|ment)?|ultrasonically (?:treated|soaked|cleaned)|sonicated|degreas\w*|remove (?:the )?(?:surface )?(?:oxide|impurit\w*))\b/i;
const CHARACTERIZATION = /\bIR \(KBr|\bAnal\.? [Cc]alc|\b[Cc]alcd\.? for\b|\bFound:|\bKBr pellet/;
// Where the chemicals came from, and how a product was tested: "… were purchased from …", "in 1 M KOH electrolyte",
// "on a CHI 660 electrochemical workstation".
const NOT_THE_RECIPE =
  /\b(?:purchased|supplied|bought) (?:from|by)\b|without (?:any )?further purification|\belectrolytes?\b|workstation|electrochemical (?:measurements?|tests?)|three-electrode|(?:reference|counter) electrode|loading mass/i;
const VARIANT = /\b(?:except that|except for|replac(?:ed|ing)|substitut(?:ed|ing|e)|instead of)\b/i;
const CLEANED_THING = /\b(?:the|a|an|freshly|well-|as-)\s*(?:clean(?:ed)?|pre-?treated)\b/gi;
// "a centrifuge tube containing …" holds a recipe; "centrifuged", "centrifugation" wash its product.
const WASHING = /\b(?:wash(?:ed|ing)|rinsed|centrifug(?!e tubes?\b)\w*|collected|dried)\b/i;
const STARTING =
  /\b(?:starting materials?|raw materials?|reagents?|reactants?|precursors?|weighed|mixed|mixture of|(?:solution|reaction|suspension) of|ground|milled|stoichiometric (?:amounts?|ratios?|quantities)|dissolved|added)\b/i;
const TARGET_CUES =
  /\b(?:synthesi[sz]ed|prepared|fabricated|obtained|grown|denoted|named|labell?ed|formed|resulting|as-(?:prepared|synthesi[sz]ed|obtained)|products?|synthesis of|preparation of)\b/i;

// Where a sentence goes on to another step ("The Ni foam was cleaned in HCl and water …, and then 1 mmol Ni(NO3)2 was
// dissolved", "… dried in an oven. 4 mmol MnCl2 …" that the sentence reader keeps whole): a step's facts are its own.
// A bare "then" inside a clause ("The Ni(OH)2 was then washed") is no new step: what it washes stays the washing's.
const NEXT_STEP = /(?:,\s*(?:and\s+)?|\s+and\s+)(?:then|subsequently|afterwards?)\s|;\s|(?<=\b[a-z]{3,})\.\s(?=\d)/g;

/** The paragraph's sentences cut into steps, with their offsets. */
function clausesOf(text: string): { text: string; start: number }[] {
  return splitSentences(text).flatMap((s) => {
    const out: { text: string; start: number }[] = [];
    let from = 0;
    for (const m of s.text.matchAll(NEXT_STEP)) {
      if (m.index > from) out.push({ text: s.text.slice(from, m.index), start: s.start + from });
      from = m.index;
    }
    out.push({ text: s.text.slice(from), start: s.start + from });
    return out;
  });
}

// The gas a step runs in or under ("annealed in NH3 atmosphere", "under flowing Ar"): the paragraph's atmosphere, and
// no reagent of the recipe.
export const ATMOSPHERE =
  /\b(?:in|under) (?:(?:a |an |flowing |static |pure )?((?:\d+% )?(?:air|Ar|argon|N2|nitrogen|O2|oxygen|H2|hydrogen|NH3|ammonia|vacuum|CO2)(?:\/(?:\d+% )?(?:Ar|argon|N2|nitrogen|O2|H2|hydrogen|NH3))?))\b(?: (?:atmosphere|flow|gas))?/gi;

/** Where the paragraph names the gas a step runs in: the gas's offsets. */
export function atmosphereGases(text: string): { start: number; end: number }[] {
  return [...text.matchAll(ATMOSPHERE)].flatMap((m) => {
    const start = m.index + m[0].indexOf(m[1]);
    const end = start + m[1].length;
    // "in NH3·H2O": a solution, not a gas.
    return /^[·.∙•]/.test(text.slice(end)) ? [] : [{ start, end }];
  });
}

/** What one step of a recipe does. */
export interface StepFacts {
  /** Cleaning a support, another sample's variant, characterization data, purchase or testing: no reagent of the recipe. */
  noReagents: boolean;
  /** Washing, collecting or drying a product. */
  washing: boolean;
  /** Making or naming a product. */
  targetCue: boolean;
  /** Weighing in, mixing or dissolving starting materials. */
  starting: boolean;
}

/** The steps of `text`, and the facts of the step a text offset stands in (computed once per step). */
export function recipeSteps(text: string): { at: (pos: number) => StepFacts } {
  const steps = clausesOf(text);
  const facts: StepFacts[] = steps.map((x) => ({
    // "The cleaned Cu foam was immersed into … containing 3 M NaOH": a participle naming a substrate cleaned before is
    // no cleaning step; the sentence's reagents count.
    // "IR (KBr pellet, cm−1): …", "Anal. Calcd for …": a compound's characterization data, not its recipe.
    // "… except that Ni(NO3)2·6H2O was replaced with Co(NO3)2·6H2O": the reagents of another sample, not this one's.
    noReagents:
      (CLEANING.test(x.text.replace(CLEANED_THING, '')) && !/\b(?:dissolved|added|mixed|stirred|autoclave)\b/i.test(x.text)) ||
      VARIANT.test(x.text) ||
      CHARACTERIZATION.test(x.text) ||
      NOT_THE_RECIPE.test(x.text),
    washing: WASHING.test(x.text) && !/\b(?:dissolved|added into|mixed with|stirred)\b/i.test(x.text),
    targetCue: TARGET_CUES.test(x.text),
    starting: STARTING.test(x.text),
  }));
  const indexOf = (pos: number) => {
    let lo = 0;
    let hi = steps.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (steps[mid].start <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  return { at: (pos) => facts[indexOf(pos)] };
}

/** Text of these rules, for the extractor's version fingerprint. */
export const recipeStepRulesSource = (): string =>
  [CLEANING, CHARACTERIZATION, NOT_THE_RECIPE, VARIANT, CLEANED_THING, WASHING, STARTING, TARGET_CUES, NEXT_STEP, ATMOSPHERE].map((r) => r.source).join('\n');
