import { sha256 } from '../../common/hash.ts';
import { candidateRulesSource, type EntityRole, type MentionCandidate, type MentionTagger, synthesisMentionCandidates } from '../../structure/entities.ts';
import type { NamedTagger } from '../../structure/paragraph.ts';
import { normaliseFormula, tidyFormula } from '../../structure/formula.ts';
import { isAlkaliSalt, isGas, isNonMetalReagent, isPrecursorFormula, isReagentSalt, LINKER, METALS } from '../../structure/reagents.ts';
import { splitSentences } from '../../structure/sentences.ts';
import { predictProbabilities, type HeadWeights } from './head.ts';
import type { MaterialTaggerWeights } from './store.ts';

/**
 * The trained material tagger: for each candidate mention the rules find in a synthesis paragraph (with the role they
 * give it, or none), softmax regression over sparse features of the mention and its context chooses its role or "none"
 * (no material of this recipe: a comparison sample, a washing solvent, a word the rules took for a product). Lexical
 * features, not the encoder: every synthesis paragraph of an import is tagged, and the candidates are many per
 * paragraph. Features are hashed into MENTION_FEATURES slots (collisions are rare at a few thousand distinct features).
 */
export const MENTION_FEATURES = 1024;
/** How sure the tagger must be that a material the rules placed is none of the recipe's (see materialTagger). */
const SURE_NONE = 0.7;
/**
 * The least share of "target" the likeliest product needs to be the paragraph's target. Chosen on the KIST folds
 * (micro-F1 0.813 at 0, 0.824 at 0.1, 0.820 at 0.2, 0.821 at 0.3; at 1, the tagger's own argmax, 0.822).
 */
const MIN_PRODUCT_SHARE = 0.1;

/** FNV-1a of a feature's name, folded into the feature slots. */
function slot(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % MENTION_FEATURES;
}

/** "Co(NO3)2·6H2O" → "Aa(AA0)0·0A0": a token's shape, repeats collapsed. */
const shape = (t: string) =>
  t
    .replace(/[A-Z]/g, 'A')
    .replace(/[a-z]/g, 'a')
    .replace(/\d/g, '0')
    .replace(/(.)\1+/g, '$1')
    .slice(0, 12);

const wordsOf = (s: string) => s.toLowerCase().match(/[a-z]+|\d+(?:\.\d+)?|[^\sa-z\d]/g) ?? [];
const word = (w: string) => (/^\d/.test(w) ? '#' : w);

const COMPARISON =
  /\b(?:for comparison|similar(?:ly)?|same (?:procedure|method|process|way)|control|except|instead|replac\w+|varied|different (?:amounts?|concentrations?))\b/i;
const PRODUCT_VERB = /\b(?:obtained|denoted|named|labell?ed|designated|synthesi[sz]ed|prepared|fabricated|grown|formed|yield\w*)\b/i;
const MIXING_VERB = /\b(?:dissolved|added|mixed|dispersed|stirred|weighed|ground|immersed|placed|put)\b/i;
const WASHING_VERB = /\b(?:wash(?:ed|ing)|rinsed|centrifug\w*|collected|dried|taken out|cleaned)\b/i;
const AMOUNT = String.raw`\d+(?:\.\d+)?\s?(?:mg|g|mmol|mol|mL|ml|µL|μL|L|M|mM|µmol|μmol|wt\s?%)(?![A-Za-z])`;
// An amount written beside a mention ("0.5 mmol of Co(NO3)2·6H2O", "NiCl2·6H2O (90 mg, 0.38 mmol)"): a reagent weighed in.
const AMOUNT_BEFORE = new RegExp(String.raw`${AMOUNT}\s(?:of\s)?(?:the\s)?$`);
const AMOUNT_AFTER = new RegExp(String.raw`^\s?[(,]\s?(?:[^()]{0,20}?,\s?)?${AMOUNT}`);
const nonMetalReagent = (t: string) => isGas(t) || isNonMetalReagent(tidyFormula(t));
/** Whether the paragraph writes an amount beside this mention. */
const weighed = (text: string, c: MentionCandidate) =>
  AMOUNT_BEFORE.test(text.slice(Math.max(0, c.start - 30), c.start)) || AMOUNT_AFTER.test(text.slice(c.end, c.end + 40));

/**
 * The version of what the tagger reads: the candidates' rules, the features' cues and their number (FEATURES_REVISION
 * changes with the code that combines them). Weights fitted on another version are not loaded.
 */
const FEATURES_REVISION = 1;
export const MENTION_FEATURES_VERSION = `mentions@${FEATURES_REVISION}-${sha256(
  [
    candidateRulesSource(),
    COMPARISON.source,
    PRODUCT_VERB.source,
    MIXING_VERB.source,
    WASHING_VERB.source,
    AMOUNT_BEFORE.source,
    AMOUNT_AFTER.source,
    String(MENTION_FEATURES),
  ].join('\n'),
).slice(0, 10)}`;

/** The names of a candidate's features in its paragraph. */
export function mentionFeatureNames(text: string, candidates: MentionCandidate[], i: number, sentences = splitSentences(text)): string[] {
  const c = candidates[i];
  const f: string[] = [`rule:${c.role ?? 'none'}`, `src:${c.source}`, `rule-src:${c.role}:${c.source}`, `shape:${shape(c.text)}`];
  if (c.variant) f.push(`variant:${c.variant}`);
  const t = tidyFormula(c.text);
  if (normaliseFormula(t)) f.push('formula');
  if (METALS.test(c.text)) f.push('metal');
  if (isReagentSalt(t)) f.push('reagent-salt');
  if (isPrecursorFormula(t)) f.push('precursor-formula');
  if (isAlkaliSalt(c.text)) f.push('alkali-salt');
  if (isNonMetalReagent(t)) f.push('non-metal-reagent');
  if (LINKER.test(c.text)) f.push('linker');
  if (/[/@]/.test(c.text)) f.push('supported');
  if (/^[a-z\s-]+$/.test(c.text)) f.push('lower-words');
  f.push(`len:${Math.min(4, c.text.split(/\s+/).length)}`);
  for (const w of c.text
    .toLowerCase()
    .split(/[\s/@()–-]+/)
    .filter((w) => w.length > 2))
    f.push(`in:${w}`);
  // Context: the four words either side, the nearest two by position.
  const left = wordsOf(text.slice(Math.max(0, c.start - 60), c.start))
    .slice(-4)
    .map(word);
  const right = wordsOf(text.slice(c.end, c.end + 60))
    .slice(0, 4)
    .map(word);
  for (const [k, w] of left.entries()) f.push(k >= left.length - 2 ? `L${left.length - k}:${w}` : `Lbag:${w}`);
  for (const [k, w] of right.entries()) f.push(k < 2 ? `R${k + 1}:${w}` : `Rbag:${w}`);
  if (left.length) f.push(`L1R1:${left[left.length - 1]}_${right[0] ?? ''}`);
  // The sentence: where it stands and what it does.
  const sentenceAt = (pos: number) => sentences.findIndex((x) => x.start <= pos && pos < x.start + x.text.length + 1);
  const s = sentenceAt(c.start);
  const sentence = sentences[Math.max(0, s)]?.text ?? '';
  f.push(s <= 0 ? 'sent:first' : s === sentences.length - 1 ? 'sent:last' : 'sent:middle');
  if (COMPARISON.test(sentence)) f.push('sent:comparison');
  if (PRODUCT_VERB.test(sentence)) f.push('sent:product-verb');
  if (MIXING_VERB.test(sentence)) f.push('sent:mixing-verb');
  if (WASHING_VERB.test(sentence)) f.push('sent:washing-verb');
  // The same material elsewhere in the paragraph: the sentences it stands in, and what the rules made of the others.
  const sameKey = candidates.filter((o) => o.key === c.key);
  const same = sameKey.length;
  if (weighed(text, c)) f.push('weighed');
  if (sameKey.some((o) => weighed(text, o))) f.push('key-weighed');
  for (const o of sameKey) {
    const k = sentenceAt(o.start);
    const t = sentences[Math.max(0, k)]?.text ?? '';
    if (k <= 0) f.push('key-in:first');
    if (k === sentences.length - 1) f.push('key-in:last');
    if (PRODUCT_VERB.test(t)) f.push('key-in:product-verb');
    if (MIXING_VERB.test(t)) f.push('key-in:mixing-verb');
    if (WASHING_VERB.test(t)) f.push('key-in:washing-verb');
    if (COMPARISON.test(t)) f.push('key-in:comparison');
    if (o.role) f.push(`key-rule:${o.role}`);
  }
  f.push(`count:${Math.min(3, same)}`);
  if (candidates.findIndex((o) => o.key === c.key) === i) f.push('first-of-key');
  const targets = candidates.filter((o) => o.role === 'target');
  if (targets.length === 0) f.push('no-rule-target');
  else if (targets[0].key === c.key) f.push('first-rule-target');
  f.push(`order:${Math.min(3, candidates.slice(0, i).filter((o) => o.role).length)}`);
  return f;
}

/** The hashed feature vector of a candidate (counts per slot). */
export function mentionFeatures(text: string, candidates: MentionCandidate[], i: number, sentences = splitSentences(text)): number[] {
  const v = new Array<number>(MENTION_FEATURES).fill(0);
  for (const name of mentionFeatureNames(text, candidates, i, sentences)) v[slot(name)] += 1;
  return v;
}

/**
 * The tagger that reads candidates with `weights`. A material has one role in a recipe: the class probabilities of its
 * mentions are averaged and every mention takes the material's most probable role.
 */
export function materialTagger(weights: HeadWeights): MentionTagger {
  return (text, candidates) => {
    const sentences = splitSentences(text);
    const byKey = new Map<string, number[]>();
    for (const [i, c] of candidates.entries()) {
      const p = predictProbabilities(weights, mentionFeatures(text, candidates, i, sentences));
      const sum = byKey.get(c.key);
      byKey.set(c.key, sum ? sum.map((x, k) => x + p[k]) : p);
    }
    // A recipe makes one product (181 of KIST's 196 gold paragraphs name one, 14 none, 1 two): the material most
    // probably the target is it, and the others take their most probable other role.
    const t = weights.labels.indexOf('target');
    const share = (p: number[], k: number) => p[k] / p.reduce((a, b) => a + b, 0);
    // A reagent written with its amount is weighed in, never the product; one the rules call a precursor without an
    // amount may be ("Fe2O3 was obtained by annealing", "NiCo2O4 nanowires were grown"): the tagger judges it.
    const weighedKeys = new Set(candidates.filter((c) => weighed(text, c)).map((c) => c.key));
    const reagent = (c: MentionCandidate) => c.role === 'precursor' && weighedKeys.has(c.key);
    // Nor is an acid, a base or a gas of the recipe ("H2SO4", "H2/air", "NH3"): a reagent whatever phrase it stands in.
    const eligible = (c: MentionCandidate) => !reagent(c) && c.role !== 'solvent' && !nonMetalReagent(c.text);
    let product: string | null = null;
    for (const c of candidates) if (eligible(c) && (product === null || share(byKey.get(c.key)!, t) > share(byKey.get(product)!, t))) product = c.key;
    // Where the product is written: another cut of its name there ("Co3O4" of "Co3O4 nanowires/CC") is no material.
    const productSpans = candidates.filter((c) => c.key === product);
    const insideProduct = (c: MentionCandidate) =>
      c.key !== product && (c.role === null || c.role === 'target') && productSpans.some((o) => c.start < o.end && c.end > o.start);
    const roles = candidates.map((c) => {
      if (insideProduct(c)) return null;
      const p = byKey.get(c.key)!;
      const ranked = weights.labels.map((label, k) => ({ label, k })).filter(({ label }) => label !== 'target' || c.key === product);
      const best = ranked.reduce((a, b) => (p[b.k] > p[a.k] ? b : a)).label;
      // The product is the target unless the tagger gives it less than MIN_PRODUCT_SHARE: a paragraph whose likeliest
      // product is unlikely names none of its own (a comparison, a recipe's second half).
      const label = c.key === product && share(p, t) >= MIN_PRODUCT_SHARE ? 'target' : best;
      // Another cut of a product's name is the product or nothing.
      if (c.source === 'variant') return label === 'target' ? 'target' : null;
      // What the tagger does not overrule, as KIST's papers (OER, mostly hydrothermal) taught it little outside them:
      // a reagent the rules read as weighed in is no product (it read the oxides and carbonates of solid-state
      // recipes as products; −0.001 of micro-F1 on the KIST folds), and the rules' solvents stand (it dropped MSPT's
      // solvents; on the KIST folds it was no better at them: solvent F1 0.911 against the rules' 0.917).
      if ((reagent(c) && label === 'target') || c.role === 'solvent') return c.role;
      // A material the rules placed is dropped only when the tagger is sure it is none: it dropped the "cupric nitrate"
      // of an impregnation recipe at 0.62. Chosen on MSPT's graph sets, outside KIST's domain (F1 0.248 → 0.252 train,
      // 0.271 → 0.306 dev); it costs 0.004 of micro-F1 on the KIST folds.
      if (label === 'none' && c.role && c.role !== 'target' && share(p, weights.labels.indexOf('none')) < SURE_NONE) return c.role;
      return label === 'none' ? null : (label as EntityRole);
    });
    // A recipe makes something: where the tagger finds no product, the rules' product stands.
    if (!roles.includes('target')) for (const [i, c] of candidates.entries()) if (c.role === 'target') roles[i] = 'target';
    return roles;
  };
}

/** The cached weights as the structurer runs them. */
export const namedTagger = (tagger: MaterialTaggerWeights): NamedTagger => ({ id: tagger.id, tag: materialTagger(tagger.weights) });

/** A paragraph with its gold materials ({"id","text","entities":[{"type","text"}]}, the KIST re-ner file's shape). */
export interface MentionGoldParagraph {
  id: string;
  text: string;
  entities: { role: string; key: string }[];
  group: string;
}

const folded = (key: string) =>
  key
    .replace(/^name:/, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
/** Two keys of one material cut differently: one folded key contains the other (at least 4 characters of it). */
const sameMaterial = (a: string, b: string) => {
  const [x, y] = [folded(a), folded(b)];
  return Math.min(x.length, y.length) >= 4 && (x.includes(y) || y.includes(x));
};

/**
 * The tagger's training rows from gold paragraphs: each candidate labelled with its material's gold role (the rules'
 * role where the gold gives that material several), or "none" where the gold does not name it.
 */
export function mentionTrainingRows(paragraphs: MentionGoldParagraph[]): { features: number[]; label: string }[] {
  const rows: { features: number[]; label: string }[] = [];
  for (const p of paragraphs) {
    const candidates = synthesisMentionCandidates(p.text);
    const sentences = splitSentences(p.text);
    candidates.forEach((c, i) => {
      // A gold span cut longer or shorter than the candidate ("cobalt acetate" in "cobalt acetate hydrate") still names
      // that reagent: its role, not "none", or the tagger would learn to drop reagents for how gold cut them.
      const exact = p.entities.filter((e) => e.key === c.key);
      // Not for products: a part of a product's name ("Co3O4" of "Co3O4 nanowires/CC") is no product.
      // Another cut of a product's name is the product only as the gold cuts it.
      if (c.source === 'variant') {
        rows.push({ features: mentionFeatures(p.text, candidates, i, sentences), label: exact.some((e) => e.role === 'target') ? 'target' : 'none' });
        return;
      }
      const roles = (exact.length ? exact : p.entities.filter((e) => e.role !== 'target' && sameMaterial(e.key, c.key))).map((e) => e.role);
      const label = roles.length === 0 ? 'none' : c.role && roles.includes(c.role) ? c.role : roles[0];
      rows.push({ features: mentionFeatures(p.text, candidates, i, sentences), label });
    });
  }
  return rows;
}
