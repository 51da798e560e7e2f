import { matchedMaterialName } from '../../evidence/model.ts';
import type { FacetDifference } from '../../retrieval/gate/facet-verdicts.ts';
import { bestSentenceOf, paperName } from './text.ts';
import { type AnswerShapeComposer, draft } from './types.ts';

/**
 * "I do not know", said with its reasons and with what the corpus does hold: the closest paper, what of the
 * question it states, and what it does not.
 */
export const abstainShape: AnswerShapeComposer = {
  name: 'abstain',
  compose(result) {
    if (!result.abstention.abstain) return null;
    const top = result.evidence[0];
    const sentences = [draft(`The corpus does not support an answer to this question: ${result.abstention.explanation}.`, [])];
    let corpusHolds: string | null = null;
    if (top) {
      const stated = [...top.matched.materials.map((m) => matchedMaterialName(top.matched, m)), ...top.matched.properties, ...top.matched.quantities];
      corpusHolds = `The closest evidence is in ${paperName(top)}${stated.length ? `, which states ${stated.join(', ')}` : ''}: ${bestSentenceOf(top)}`;
      sentences.push(draft(corpusHolds, [top.id]));
      const differs = differenceText(result.abstention.differences ?? []);
      if (differs) {
        corpusHolds = `${corpusHolds} ${differs}`;
        sentences.push(draft(differs, [top.id]));
      }
    }
    if (result.recordsNote) {
      sentences.push(draft(result.recordsNote, []));
      corpusHolds = corpusHolds ? `${corpusHolds} ${result.recordsNote}` : result.recordsNote;
    }
    return { shape: 'abstain', sentences, corpusHolds };
  },
};

const ABSENT: Record<FacetDifference['facet'], (asked: string) => string> = {
  material: (asked) => `it does not mention ${asked}`,
  value: (asked) => `it states no ${asked}`,
  condition: (asked) => `it does not state the condition ${asked}`,
  technique: (asked) => `it names no ${asked}`,
};

/** "It states 450 mW cm−2 where you asked about 1900 mW cm−2; it does not mention Ni." */
export function differenceText(differences: readonly FacetDifference[]): string | null {
  if (!differences.length) return null;
  const parts = differences.map((d) => (d.stated ? `it states ${d.stated} where you asked about ${d.asked}` : ABSENT[d.facet](d.asked)));
  const text = parts.join('; ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}
