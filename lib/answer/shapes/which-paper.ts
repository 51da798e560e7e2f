import { bare, bestSentenceOf, paperName, quote } from './text.ts';
import { type AnswerShapeComposer, draft } from './types.ts';

/** A "which paper" question: the paper, and the sentence of it that states the asked facts. */
export const whichPaperShape: AnswerShapeComposer = {
  name: 'which-paper',
  compose(result) {
    if (result.analysis.intent !== 'which-paper') return null;
    const top = result.papers[0];
    const e = top && result.evidence.find((x) => top.evidenceIds.includes(x.id));
    if (!e) return null;
    const sentences = [draft(`The paper is ${paperName(e)}.`, [e.id]), draft(`It states: ${quote(bare(bestSentenceOf(e)))}.`, [e.id])];
    return { shape: 'which-paper', sentences };
  },
};
