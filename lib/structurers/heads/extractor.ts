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
export function headsExtractor(heads: StructuringHeads, embed: (texts: string[]) => Promise<ArrayLike<number>[]>): StructureExtractor {
  const vectors = new Map<string, ArrayLike<number>>();
  // The rules' reading of the page's paragraphs, made once in `prepare` and used again for each.
  const ruled = new Map<string, ParagraphStructure>();
  let failure: Error | null = null;
  return {
    id: `heads@${heads.id}+${offlineExtractor.id}`,
    describe: `trained heads (${heads.encoder}, ${heads.id}) over the offline rules`,
    async prepare(texts: string[]) {
      vectors.clear();
      ruled.clear();
      failure = null;
      for (const t of texts) ruled.set(t, offlineExtractor.structureParagraph(t));
      const reviewed = [...new Set(texts.filter((t) => REVIEWED_ROLES.has(ruled.get(t)!.role)))];
      if (reviewed.length === 0) return;
      try {
        const got = await embed(reviewed);
        for (const [i, t] of reviewed.entries()) vectors.set(t, got[i]);
      } catch (error) {
        // Each reviewed paragraph fails (and is retried on the next run) rather than being stamped with the rules' reading.
        failure = error as Error;
      }
    },
    async structureParagraph(text: string): Promise<ParagraphStructure> {
      const rules = ruled.get(text) ?? offlineExtractor.structureParagraph(text);
      if (!REVIEWED_ROLES.has(rules.role)) return rules;
      let vector = vectors.get(text);
      if (!vector) {
        if (failure) throw new Error(`the encoder gave no vector for the trained heads: ${failure.message}`);
        [vector] = await embed([text]);
      }
      const role = combinedRole(rules.role, () => headRole(heads, text, vector));
      const method = role === 'synthesis' ? headMethod(heads, text, vector) : undefined;
      return role === rules.role && !method ? rules : structureAs(text, role, method);
    },
  };
}
