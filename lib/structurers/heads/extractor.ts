import type { ParagraphRole, SynthesisMethod } from '../../structure/classify.ts';
import { type NamedTagger, type ParagraphStructure, rulesExtractor, structureAs, type StructureExtractor } from '../../structure/paragraph.ts';
import { headFeatures, predictLabel } from './head.ts';
import type { StructuringHeads } from './store.ts';

/**
 * The roles the rules give that the trained role head reviews. The head reads the encoder's vector, and embedding
 * every paragraph of an import would take minutes the import does not have (the dense index embeds the corpus later,
 * reusing the vectors computed here): the rules' synthesis and performance paragraphs are where their errors lay on
 * the KIST dev folds (ink and electrode preparation read as synthesis; discussion read as performance), a fifth of
 * the shared corpus's paragraphs.
 */
export const REVIEWED_ROLES: ReadonlySet<ParagraphRole> = new Set(['synthesis', 'performance']);

/** The role and method the deployed combination gives: the rules' role unless reviewed, then the head's. */
export function combinedRole(rulesRole: ParagraphRole, head: () => ParagraphRole): ParagraphRole {
  return REVIEWED_ROLES.has(rulesRole) ? head() : rulesRole;
}

export function headRole(heads: StructuringHeads, text: string, vector: ArrayLike<number>): ParagraphRole {
  return predictLabel(heads.role, headFeatures('paragraph-role', heads.role.inputs, text, vector)).label as ParagraphRole;
}

export function headMethod(heads: StructuringHeads, text: string, vector: ArrayLike<number>): SynthesisMethod {
  return predictLabel(heads.method, headFeatures('synthesis-method', heads.method.inputs, text, vector)).label as SynthesisMethod;
}

/** The local model as the heads read it: through the database's vector cache, so the vectors are the dense index's. */
export interface HeadsEncoder {
  embed(texts: string[]): Promise<ArrayLike<number>[]>;
  /** Which texts' vectors are stored already (reading them costs no model time). */
  stored(texts: string[]): Promise<boolean[]>;
}

/**
 * Paragraphs a structuring run may embed for the heads beyond those whose vectors are stored: about 15 s of the model
 * on two cores. An import of a few papers is reviewed whole; at the shared corpus (some 2,300 paragraphs to review,
 * 50 s of the model) the rest keep the rules' reading, stamped as the rules', for `npm run structure` (no budget) to
 * review, so the import is not held by the model.
 */
export const REVIEW_BUDGET = 256;

/**
 * The structurer with trained heads: paragraph role and synthesis method from the heads where they review the rules,
 * everything else (materials, quantities, conditions, claims) from the rules, the materials' roles from the trained
 * material tagger when one is given.
 */

export function headsExtractor(
  heads: StructuringHeads,
  encoder: HeadsEncoder,
  opts: { budget?: number; tagger?: NamedTagger | null } = {},
): StructureExtractor {
  const budget = opts.budget ?? REVIEW_BUDGET;
  const rulesReading = rulesExtractor(opts.tagger ?? null);
  const vectors = new Map<string, ArrayLike<number>>();
  // The rules' reading of the paragraphs read so far, made once and used again for each.
  const ruled = new Map<string, ParagraphStructure>();
  // Paragraphs whose vector could not be had: each fails (and is retried on the next run) rather than being stamped
  // with the rules' reading.
  const failed = new Map<string, Error>();
  let spent = 0;
  /** Reads the rules' reading of `texts` and the vectors of those the heads review: stored ones, and `fresh` new ones at most. */
  const read = async (texts: string[], fresh: number) => {
    for (const t of texts) if (!ruled.has(t)) ruled.set(t, rulesReading.structureParagraph(t));
    const candidates = [...new Set(texts.filter((t) => REVIEWED_ROLES.has(ruled.get(t)!.role) && !vectors.has(t)))];
    if (candidates.length === 0) return;
    try {
      const stored = await encoder.stored(candidates);
      const allowed = new Set(candidates.filter((_, i) => !stored[i]).slice(0, Math.max(0, fresh)));
      spent += allowed.size;
      const reviewed = candidates.filter((t, i) => stored[i] || allowed.has(t));
      const got = await encoder.embed(reviewed);
      for (const [i, t] of reviewed.entries()) vectors.set(t, got[i]);
    } catch (error) {
      for (const t of candidates) failed.set(t, error as Error);
    }
  };
  return {
    id: `heads@${heads.id}+${rulesReading.id}`,
    async prepare(texts: string[]) {
      // One page at a time: what the page before read is not kept.
      vectors.clear();
      ruled.clear();
      failed.clear();
      await read(texts, budget - spent);
    },
    async structureParagraph(text: string): Promise<ParagraphStructure> {
      // A paragraph outside the prepared page (a record rebuilt from its paper's paragraphs) is read as it was stamped:
      // with the heads when its vector is stored, else with the rules; it embeds nothing new.
      if (!ruled.has(text)) await read([text], 0);
      const rules = ruled.get(text)!;
      if (!REVIEWED_ROLES.has(rules.role)) return rules;
      const error = failed.get(text);
      if (error) throw new Error(`the encoder gave no vector for the trained heads: ${error.message}`);
      const vector = vectors.get(text);
      // Past the run's budget: the rules' reading, stamped as theirs, for a later run to review.
      if (!vector) return { ...rules, structurer: rulesReading.id };
      const role = combinedRole(rules.role, () => headRole(heads, text, vector));
      const method = role === 'synthesis' ? headMethod(heads, text, vector) : undefined;
      return role === rules.role && !method ? rules : structureAs(text, role, method, opts.tagger?.tag);
    },
  };
}
