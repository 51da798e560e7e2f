import type { ParagraphRole, SynthesisMethod } from '../../structure/classify.ts';
import { offlineExtractor, structureAs, type ParagraphStructure, type StructureExtractor } from '../../structure/paragraph.ts';
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

/**
 * The structurer with trained heads: paragraph role and synthesis method from the heads where they review the rules,
 * everything else (materials and their roles, quantities, conditions, claims) from the rules. `embed` is the local
 * model through the database's vector cache, so the vectors are the ones the dense index reads.
 */
export interface HeadsEncoder {
  embed(texts: string[]): Promise<ArrayLike<number>[]>;
  /** Which texts' vectors are stored already (reading them costs no model time). */
  stored(texts: string[]): Promise<boolean[]>;
}

/**
 * Paragraphs a structuring run may embed for the heads beyond those whose vectors are stored: about 15 s of the model
 * on two cores. An import of a few papers is reviewed whole; at the shared corpus (some 1,800 paragraphs to review,
 * 50 s of the model) the rest are read by the rules, stamped so, and reviewed by a later run once the dense index's
 * pass has stored their vectors (the server's start, `npm run structure`), so the import is not held by the model.
 */
export const REVIEW_BUDGET = 256;

export function headsExtractor(heads: StructuringHeads, encoder: HeadsEncoder, opts: { budget?: number } = {}): StructureExtractor {
  const budget = opts.budget ?? REVIEW_BUDGET;
  const vectors = new Map<string, ArrayLike<number>>();
  // The rules' reading of the page's paragraphs, made once in `prepare` and used again for each.
  const ruled = new Map<string, ParagraphStructure>();
  let failure: Error | null = null;
  let spent = 0;
  return {
    id: `heads@${heads.id}+${offlineExtractor.id}`,
    describe: `trained heads (${heads.encoder}, ${heads.id}) over the offline rules`,
    async prepare(texts: string[]) {
      vectors.clear();
      ruled.clear();
      failure = null;
      for (const t of texts) ruled.set(t, offlineExtractor.structureParagraph(t));
      const candidates = [...new Set(texts.filter((t) => REVIEWED_ROLES.has(ruled.get(t)!.role)))];
      if (candidates.length === 0) return;
      try {
        const stored = await encoder.stored(candidates);
        const fresh = candidates.filter((_, i) => !stored[i]);
        const allowed = new Set(fresh.slice(0, Math.max(0, budget - spent)));
        spent += allowed.size;
        const reviewed = candidates.filter((t, i) => stored[i] || allowed.has(t));
        const got = await encoder.embed(reviewed);
        for (const [i, t] of reviewed.entries()) vectors.set(t, got[i]);
      } catch (error) {
        // Each reviewed paragraph fails (and is retried on the next run) rather than being stamped with the rules' reading.
        failure = error as Error;
      }
    },
    async structureParagraph(text: string): Promise<ParagraphStructure> {
      const rules = ruled.get(text) ?? offlineExtractor.structureParagraph(text);
      if (!REVIEWED_ROLES.has(rules.role)) return rules;
      if (failure) throw new Error(`the encoder gave no vector for the trained heads: ${failure.message}`);
      const vector = vectors.get(text);
      // Past the run's budget: the rules' reading, stamped as theirs, for a later run to review.
      if (!vector) return { ...rules, structurer: offlineExtractor.id };
      const role = combinedRole(rules.role, () => headRole(heads, text, vector));
      const method = role === 'synthesis' ? headMethod(heads, text, vector) : undefined;
      return role === rules.role && !method ? rules : structureAs(text, role, method);
    },
  };
}
