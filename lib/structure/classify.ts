/**
 * Offline paragraph classifiers: weighted lexical cues written by the team (no model, no network), fast
 * enough for the whole corpus in well under a second. Each class sums the weights of its cues found in the
 * paragraph (each cue counted at most `cap` times); the highest score wins, ties going to the earlier class.
 */

/** The paragraph roles and synthesis methods, defined here once (schemas, filters and prompts import them). */
export const PARAGRAPH_ROLES = ['system', 'performance', 'synthesis', 'others'] as const;
export type ParagraphRole = (typeof PARAGRAPH_ROLES)[number];
export const SYNTHESIS_METHODS = ['vapor-phase', 'solid-phase', 'electrodeposition', 'hydro-solvothermal', 'precipitation', 'sol-gel', 'others'] as const;
export type SynthesisMethod = (typeof SYNTHESIS_METHODS)[number];

type Cue = [RegExp, number];

export interface Classification<L extends string> {
  label: L;
  scores: Record<L, number>;
  /** The cues that fired for the winning label, for explanation in the UI. */
  evidence: string[];
}

function classify<L extends string>(text: string, cues: Record<L, Cue[]>, fallback: L, cap = 3): Classification<L> {
  const labels = Object.keys(cues) as L[];
  const scores = Object.fromEntries(labels.map((l) => [l, 0])) as Record<L, number>;
  const hits = Object.fromEntries(labels.map((l) => [l, [] as string[]])) as Record<L, string[]>;
  for (const l of labels) {
    for (const [re, w] of cues[l]) {
      const n = Math.min(cap, (text.match(new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`)) ?? []).length);
      if (n > 0) {
        scores[l] += w * n;
        hits[l].push(re.source);
      }
    }
  }
  let best = fallback;
  let bestScore = 0;
  for (const l of labels) {
    if (scores[l] > bestScore) {
      best = l;
      bestScore = scores[l];
    }
  }
  return { label: best, scores, evidence: hits[best] };
}

// "was prepared via a sol–gel method", "synthesized through a modified Hummers' method", "grown by CVD": the route a
// paragraph names for what it makes outweighs the words of its steps (a sol-gel's gel is then ground and calcined).
const NAMED_ROUTES: [SynthesisMethod, string][] = [
  ['sol-gel', 'sol[–-]gel|Pechini|(?:spontaneous )?gelation|citrate[–-]gel'],
  ['hydro-solvothermal', 'hydrothermal|solvothermal'],
  ['precipitation', 'co-?precipitation|precipitation'],
  ['solid-phase', 'solid[- ](?:state|phase)|ball[- ]milling|molten[- ]salt|(?:self-)?flux'],
  ['vapor-phase', 'chemical vapou?r deposition|CVD|sputtering|atomic layer deposition|ALD|vapou?r[- ]phase|thermal evaporation'],
  ['electrodeposition', 'electrodeposition|electrochemical deposition|electroplating|anodi[sz]ation'],
  ['others', "Hummers'?|seed-mediated|ion[- ]exchange|impregnation|galvanic replacement|electrospinning|dealloying|exfoliation|chemical reduction"],
];
const NAMED_ROUTE = new RegExp(
  String.raw`\b(?:prepared|synthesi[sz]ed|fabricated|grown|obtained|produced|made|deposited)\b[^.;]{0,30}?\b(?:via|by|through|using|with)\s+(?:an?\s|the\s)?(?:[\w-]+\s){0,5}?(?:${NAMED_ROUTES.map(([, r]) => `(${r})`).join('|')})(?=[\s,.;]|$)`,
  'gi',
);
const NAMED_ROUTE_WEIGHT = 6;

const roleCues: Record<ParagraphRole, Cue[]> = {
  synthesis: [
    [/\b(?:was|were) (?:synthesi[sz]ed|prepared|fabricated|obtained|grown)\b/i, 2],
    [/\bsynthesi[sz](?:ed|is) (?:of|via|by|through)\b/i, 2],
    [
      /\b(?:was|were|is|are)\s+(?:\w+ly\s+)?(?:then\s+)?(?:dissolved|added|mixed|stirred|heated|calcined|annealed|sintered|dried|washed|filtered|centrifuged|transferred|sealed|ground|milled|pressed|dispersed|immersed|deposited|kept|maintained|cooled|poured|loaded|placed|purchased|used as received)\b/i,
      2,
    ],
    [
      /\b(?:dissolved|stirr(?:ed|ing)|autoclave|teflon|sonicat(?:ed|ion)|centrifug\w*|calcin\w*|anneal(?:ed|ing)|sinter\w*|dried|washed|rinsed|precursors?|dropwise|impregnat\w*|ball[- ]mill\w*)\b/i,
      0.5,
    ],
    [/\b\d+(?:\.\d+)?\s?(?:mmol|mg|g|mL|ml|μL|µL)\b(?: of)?/i, 1],
    [/\b(?:heated|ramp(?:ed|ing)?|furnace|tube furnace|heating rate)\b/i, 1],
    [/\b(?:hydrothermal|solvothermal|sol[–-]gel|co-?precipitat\w*|electrodeposit\w*|chemical vapou?r deposition|pyroly\w*)\b/i, 1.5],
    [/\bIn a typical (?:synthesis|procedure|process|preparation)\b/i, 3],
    // "… were prepared by electrodeposition using a three-electrode cell": the route named for what is made.
    [NAMED_ROUTE, 2],
  ],
  system: [
    [/\bthree-electrode\b|\btwo-electrode\b|\bthree electrode\b/i, 3],
    [/\belectrochemical (?:workstation|station|analy[sz]er)\b|\bpotentiostat\w*\b|\bCHI ?\d{3}\w?\b|\bAutolab\b|\bBiologic\b|\bGamry\b/i, 3],
    [/\b(?:working|reference|counter) electrodes?\b/i, 2],
    [
      /\b(?:electrochemical|electrocatalytic|OER|HER|ORR|catalytic) (?:measurements?|tests?|experiments?|performances?|activit(?:y|ies)|properties) (?:were|was) (?:carried out|performed|conducted|recorded|made|evaluated|measured|tested)\b/i,
      3,
    ],
    [/\b(?:were|was) (?:carried out|performed|conducted|recorded|measured|evaluated) (?:in|on|using|with|at|by)\b/i, 1],
    [
      /\b(?:glassy carbon|Nafion|inks?|catalyst loading|mass loading|drop-?cast\w*|brush-?paint\w*|rotating disk|RDE|RRDE|gas diffusion layer|membrane electrode assembl\w*|MEA)\b/i,
      2,
    ],
    [/\b(?:scan rate|iR[- ]?(?:compensation|correct\w*)|converted to (?:the )?(?:RHE|reversible hydrogen electrode)|E\s?\(?RHE\)?\s?=)\b/i, 2],
    [/\b(?:electrolyte|saturated calomel|Ag\/AgCl|Hg\/HgO|graphite rod|Pt (?:wire|foil|plate))\b/i, 1],
    // How a measurement was made: "Chronopotentiometry measurements were performed to evaluate the stability".
    [
      /\b(?:chronopotentiometr\w*|chronoamperometr\w*|linear sweep voltammetr\w*|LSVs?|cyclic voltammetr\w*|CVs?|electrochemical impedance spectroscopy|EIS)(?: \w+){0,2} (?:were|was) (?:performed|measured|adopted|carried out|conducted|recorded|used|employed)\b/i,
      3,
    ],
    // An in situ or operando spectrum taken in an electrochemical cell under potential: the test system.
    [
      /\b(?:in[- ]situ|operando)\b[\s\S]{0,400}?\b(?:(?:working|counter|reference) electrode|three-electrode|electrochemical cell|vs\.? RHE|versus RHE|controlled potentials?)\b/i,
      4,
    ],
  ],
  performance: [
    [/\boverpotentials? of\b|η\s?\d*\s?(?:of|=)/i, 2],
    [/\bcurrent densit(?:y|ies)\b/i, 1],
    [/\bTafel slopes?\b|\bmV\s?dec\W?1\b|mV dec[–−-]1/i, 2],
    [
      /\b(?:exhibit(?:s|ed)?|show(?:s|ed)?|deliver(?:s|ed)?|achiev(?:es|ed)|display(?:s|ed)?|demonstrat(?:es|ed)) (?:an? |the )?(?:excellent|superior|remarkable|outstanding|high|low|better|enhanced|good|small|smaller|lower|higher|impressive)\b/i,
      2,
    ],
    [/\b(?:stability|durability|activity|performance|kinetics)\b/i, 0.7],
    [/\b(?:outperform\w*|superior to|better than|comparable to|compared (?:to|with))\b/i, 1],
    [/\b(?:Herein|In summary|In conclusion|To sum up|we report|we (?:have )?(?:developed|demonstrated|designed))\b/i, 2],
    [
      /\b(?:mass activity|specific activity|turnover frequency|TOF|Faradaic efficiency|electrochemically active surface area|ECSA|double[- ]layer capacitance)\b/i,
      1.5,
    ],
    [/\bat (?:a )?current densit(?:y|ies) of\b|\bto (?:reach|achieve|deliver) (?:a )?current density\b/i, 1.5],
  ],
  others: [
    [
      /\b(?:purchased from|obtained from|supplied by|Sigma-Aldrich|Aldrich|Alfa Aesar|Macklin|Aladdin|Sinopharm|Co\., Ltd|without (?:any )?further purification|analytical (?:grade|reagent))\b/i,
      3,
    ],
    [/\b(?:diffractometer|spectrometer|spectrophotometer|microscop(?:e|y)|instrument|monochromat\w*|Cu Kα|Al Kα)\b/i, 2],
    [
      /\b(?:XRD|X-ray (?:powder )?diffraction|XPS|X-ray photoelectron|SEM|TEM|HRTEM|HAADF|STEM|EDS|EDX|Raman|FTIR|XANES|EXAFS|XAS|BET|TGA|ICP|NMR|EPR|Mössbauer)\b/i,
      1.5,
    ],
    [/\b(?:DFT|density functional|first[- ]principles?|calculations?|computed|simulat\w*|free energy|d-band|adsorption energ\w*)\b/i, 1.5],
    [
      /\b(?:(?:is|are|were|was) (?:shown|observed|displayed|presented|depicted|seen)|(?:indicat|suggest|reveal|confirm|demonstrat)(?:es|ed|ing)? that|as shown in|shown in (?:Fig|Figure|Table))/i,
      1,
    ],
    [
      /\b(?:diffraction (?:peaks?|patterns?)|lattice (?:fringes?|parameters?|spacing)|crystal structure|morpholog\w*|spectr(?:um|a)|binding energ\w*|oxidation state|susceptibility|magnetic)\b/i,
      1,
    ],
  ],
};

/** A procedure says what was done to what: a passive procedural verb, an amount, or "In a typical …". */
const PROCEDURE_EVIDENCE =
  /\b(?:was|were)\s+(?:\w+ly\s+)?(?:then\s+)?(?:dissolved|added|mixed|stirred|heated|calcined|annealed|sintered|dried|filtered|centrifuged|transferred|sealed|ground|milled|pressed|dispersed|immersed|deposited|grown|synthesi[sz]ed|prepared|fabricated|obtained|poured|loaded)\b|\b(?:is|are)\s+(?:\w+ly\s+)?(?:synthesi[sz]ed|prepared|fabricated|grown|obtained)\b|\bsynthe(?:sis|tic) (?:procedure|process|route|method)\b|\b\d+(?:\.\d+)?\s?(?:mmol|mg|mL|ml|μL|µL|g)\b|\bIn a typical\b/i;

/**
 * A procedure whose product is a test set-up, not a material: an ink or an electrode made for measuring ("5 mg of
 * catalyst was dispersed in isopropanol with Nafion … drop-cast on a glassy carbon electrode"), or a measurement
 * the paragraph opens on ("The H2-TPR measurements were conducted in a flow set-up"). Unless the paragraph also
 * makes a material (hydrothermal, calcined, synthesized by …), it describes the system.
 */
const TEST_PREPARATION = /\b(?:Nafion|catalyst inks?|inks?|glassy carbon|drop-?cast\w*|membrane electrode assembl\w*|MEAs?|rotating (?:ring[- ])?dis[ck])\b/i;
const MEASUREMENT_OPENING =
  /^\s*(?:The |In situ |Operando )?[\w\s()/-]{0,50}?\b(?:measurements?|tests?|analys[ie]s|spectra|experiments?|characteri[sz]ations?) (?:were|was) (?:conducted|performed|carried out|recorded|acquired|collected|determined|made)\b/i;
const MEASURED_RESULT = /\d\s?(?:mV|V\b|mA|A\s?g|µA|μA|mAh|F\s?g|Ω|ohm|S\s?cm|%|h\b|hours?|cycles?|s[−-]1|μmol|µmol|mmol\s?g|W\s?(?:cm|kg|m)|mW)/i;
const MAKES_A_MATERIAL =
  /\b(?:hydrothermal\w*|solvothermal\w*|autoclave|calcin\w*|sol[–-]gel|sintered|co-?precipitat\w*|synthesi[sz]ed (?:by|via|through|using)|(?:was|were) (?:synthesi[sz]ed|grown))\b/i;

export function classifyParagraphRole(text: string): Classification<ParagraphRole> {
  const result = classify<ParagraphRole>(text, roleCues, 'others');
  // Results that merely mention processing ("pellets sintered at 800 °C showed …") are not synthesis
  // paragraphs: without procedural evidence the next best role wins.
  if (result.label === 'synthesis' && !PROCEDURE_EVIDENCE.test(text)) return roleOtherThanSynthesis(text);
  // A performance paragraph reports what was measured: with no measured number in it, the activity it speaks of is
  // an introduction's or a discussion's ("the superior activity … can be ascribed to …").
  if (result.label === 'performance' && !MEASURED_RESULT.test(text)) {
    const other = classify<ParagraphRole>(text, { ...roleCues, performance: [] }, 'others');
    return other.label === 'synthesis' ? { ...result, label: 'others' } : other;
  }
  if (result.label === 'synthesis' && (TEST_PREPARATION.test(text) || MEASUREMENT_OPENING.test(text)) && !MAKES_A_MATERIAL.test(text))
    return { ...result, label: 'system', evidence: ['test set-up'] };
  return result;
}

/** The best role when synthesis is ruled out (by missing procedure, or by no material being made). */
export function roleOtherThanSynthesis(text: string): Classification<ParagraphRole> {
  return classify<ParagraphRole>(text, { ...roleCues, synthesis: [] }, 'others');
}

const methodCues: Record<SynthesisMethod, Cue[]> = {
  'hydro-solvothermal': [
    [/\b(?:hydrothermal\w*|solvothermal\w*)\b/i, 4],
    [
      /\b(?:autoclave|teflon[- ]lined|Teflon|PTFE[- ]lined|stainless[- ]steel autoclave|PTFE reactor|reaction kettle|(?:hydrothermal|solvothermal) (?:reactor|kettle|vessel))\b/i,
      3,
    ],
  ],
  electrodeposition: [
    [
      /\belectro-?(?:chemical )?deposit\w*|\belectrodeposit\w*|\bcathodic deposition\b|\belectroplat\w*|\banodi[sz]ation\b|\belectrochemical(?:ly)? (?:grown|synthesi[sz]ed|activated|reduction)\b/i,
      4,
    ],
    [/\b(?:potentiostatic\w*|galvanostatic\w*|cyclic voltammetr\w* (?:deposition|cycles?)|constant (?:potential|current))\b/i, 2],
    [/\b(?:three|two)-electrode (?:system|cell|configuration|setup)\b|\b(?:working|reference|counter) electrode\b/i, 1.5],
  ],
  'sol-gel': [
    [/\bsol[–-]gel\b|\bPechini\b|\bxerogel\b|\baerogel\b|\bhydrogel\b|\bgel(?:ation|led)?\b/i, 4],
    [/\b(?:citric acid|EDTA|ethylene glycol|chelat\w*|complexing agent)\b/i, 2],
  ],
  precipitation: [
    [/\b(?:co-?precipitat\w*|precipitat(?:e|ed|ion))\b/i, 3],
    [/\b(?:dropwise|drop by drop|pH|ammonia|NH3·H2O|aging|aged|NaOH|KOH|Na2CO3|NaBH4|triethylamine|TEA)\b/i, 1],
    [/\b(?:reflux\w*|round-bottom(?:ed)? flask|oil bath|hot injection|room temperature|ambient (?:conditions|temperature))\b/i, 1],
  ],
  'vapor-phase': [
    [
      /\b(?:chemical vapou?r deposition|CVD|atomic layer deposition|ALD|sputter\w*|magnetron|pulsed laser deposition|PLD|evaporat(?:ion|ed) (?:deposition|onto)|thermal evaporation|plasma)\b/i,
      4,
    ],
    [/\b(?:phosphori[sz]\w*|phosphidi?[sz]\w*|seleni[sz]\w*|sulfuri[sz]\w*|nitrid\w*)\b/i, 2],
    [/\b(?:upstream|downstream|tube furnace|gas flow|Ar flow|carrier gas|NaH2PO2|sccm)\b/i, 1.5],
    // A source placed upstream of the sample: a vapour carried over it (phosphidation, selenisation, CVD).
    [/\bupstream\b[\s\S]*\bdownstream\b|\bdownstream\b[\s\S]*\bupstream\b/i, 4],
  ],
  'solid-phase': [
    [
      /\bsolid[- ]state (?:reaction|method|route|synthesis)\b|\bsolid[- ]phase\b|\bball[- ]mill\w*|\bmolten (?:salts?|KOH|NaOH|LiOH)\b|\bgrind\w*|\bground\b|\bmortar\b/i,
      4,
    ],
    // Crystals grown from a melt or a flux, or elements sealed in an evacuated ampoule and fired.
    [/\b(?:self-)?flux (?:method|growth)\b|\bevacuated (?:quartz|silica) (?:tube|ampoule)\b|\bsealed in (?:an )?evacuated\b/i, 4],
    [/\b(?:calcin\w*|sinter\w*|pyroly\w*|annealed|thermal (?:treatment|process)|powders? (?:were|was) mixed)\b/i, 1],
    [/\b(?:carbonates?|oxides?) (?:were|was) (?:mixed|weighed)\b/i, 2],
  ],
  others: [
    // A route the paragraph names that is none of the six ("by the seed-mediated growth method", "through a chemical
    // reduction procedure", "two dip-coating steps"): as strong as a method's own name, or the wet-chemistry words of
    // precipitation (pH, NaOH, room temperature) outvote it.
    [
      /\bHummers'?|\bseed-mediated\b|\bchemical reduction\b|\bdip-?coat\w*|\bdrop-?cast\w*|\bspin-?coat\w*|\bion[- ]exchange\b|\bgalvanic replacement\b|\belectrospinn\w*|\bsacrificial templates?\b|\bdealloy\w*|\bimpregnat\w*|\bexfoliat\w*|\bfreeze[- ]dr\w*/i,
      4,
    ],
    [/\bcommercial(?:ly)?\b|\bspray\b|\betch\w*|\bmicrowave\b|\bchemical oxidation\b|\bpersulfate\b|\(NH4\)2S2O8/i, 2.5],
    // A made material soaked or dipped in a solution at room temperature: an exchange or a loading, not a precipitation.
    [/\b(?:soaked|dipped) in\b/i, 1.5],
  ],
};

// "… in H2O (5.00 mL) was heated to 150 °C for 72 h", "the reaction … at 135 °C for 48 h produced …": a liquid held
// above its boiling point for hours is a sealed vessel's synthesis even where the paragraph does not name the
// autoclave (a paper names it once, elsewhere). Not a drying, a calcination or an anneal (the words before it).
const HELD_HOT = /\b(?:to|at)\s+(\d{3})\s?(?:°\s?C|oC|degC|℃)[^.;]{0,25}?\bfor\s+\d+(?:\.\d+)?\s?(?:h|hours?|d|days?)\b/gi;
const IN_A_LIQUID = /\b(?:H2O|water|ethanol|methanol|DMF|solution|aqueous)\b/i;
const DRY_HEATING = /\b(?:dried|drying|dry|calcin\w*|anneal\w*|sinter\w*|furnace|pyroly\w*|oven|vacuum|under (?:Ar|N2|argon|nitrogen|air))\b[^.;]*$/i;

function heldHotInLiquid(text: string): boolean {
  if (!IN_A_LIQUID.test(text)) return false;
  for (const m of text.matchAll(HELD_HOT)) {
    const celsius = Number(m[1]);
    if (celsius > 100 && celsius <= 260 && !DRY_HEATING.test(text.slice(Math.max(0, m.index - 60), m.index))) return true;
  }
  return false;
}

function namedRoutes(text: string): Set<SynthesisMethod> {
  const named = new Set<SynthesisMethod>();
  for (const m of text.matchAll(NAMED_ROUTE)) {
    const i = m.slice(1).findIndex((g) => g !== undefined);
    if (i >= 0) named.add(NAMED_ROUTES[i][0]);
  }
  return named;
}

export function classifySynthesisMethod(text: string): Classification<SynthesisMethod> {
  const result = classify<SynthesisMethod>(text, methodCues, 'others');
  const named = namedRoutes(text);
  const hot = result.label !== 'hydro-solvothermal' && heldHotInLiquid(text);
  if (named.size === 0 && !hot) return result;
  const scores = { ...result.scores };
  for (const m of named) scores[m] += NAMED_ROUTE_WEIGHT;
  if (hot) scores['hydro-solvothermal'] += 4;
  const best = (Object.keys(scores) as SynthesisMethod[]).reduce((a, b) => (scores[b] > scores[a] ? b : a), result.label);
  if (best === result.label) return { ...result, scores };
  const evidence = named.has(best) ? [`names the route: ${best}`] : ['liquid heated above its boiling point for hours'];
  return { label: best, scores, evidence };
}

/** Text of every rule here, for the extractor's version fingerprint. */
export const classifierRulesSource = (): string =>
  JSON.stringify([roleCues, methodCues].map((c) => Object.entries(c).map(([k, cues]) => [k, cues.map(([re, w]) => [re.source, w])]))) +
  PROCEDURE_EVIDENCE.source +
  TEST_PREPARATION.source +
  HELD_HOT.source +
  NAMED_ROUTE.source +
  NAMED_ROUTE_WEIGHT +
  IN_A_LIQUID.source +
  DRY_HEATING.source +
  MEASURED_RESULT.source +
  MEASUREMENT_OPENING.source +
  MAKES_A_MATERIAL.source;
