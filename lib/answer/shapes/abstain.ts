import { matchedMaterialName } from '../../evidence/model.ts';
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
    }
    return { shape: 'abstain', sentences, corpusHolds };
  },
};
