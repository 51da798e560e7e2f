import type { PaperHit } from '../../retrieval/papers.ts';
import { bare, bestSentenceOf, paperName, quote } from './text.ts';
import { type AnswerShapeComposer, type DraftSentence, draft } from './types.ts';

/** Other papers named after the answer at most. */
const OTHERS = 3;

/**
 * A "which paper" question: the paper, and the sentence of it that states the asked facts; then the other papers
 * that state the same values, saying which of them only cite them (the first is the one that reports them as its
 * own result when one does, see `preferOwnResults`).
 */
export const whichPaperShape: AnswerShapeComposer = {
  name: 'which-paper',
  compose(result) {
    if (result.analysis.intent !== 'which-paper') return null;
    const top = result.papers[0];
    const e = top && result.evidence.find((x) => top.evidenceIds.includes(x.id));
    if (!e) return null;
    const sentences = [draft(`The paper is ${paperName(e)}.`, [e.id]), draft(`It states: ${quote(bare(bestSentenceOf(e)))}.`, [e.id])];
    const same = sameFactSentence(
      result.analysis.quantities.map((q) => q.text),
      result.papers.slice(1),
      result.evidence,
    );
    if (top.statesAskedFacts && same) sentences.push(same);
    return { shape: 'which-paper', sentences };
  },
};

function sameFactSentence(values: string[], papers: PaperHit[], evidence: { id: string }[]): DraftSentence | null {
  const others = papers
    .filter((p) => p.statesAskedFacts)
    .map((p) => ({ p, e: evidence.find((x) => p.evidenceIds.includes(x.id)) }))
    .filter((o): o is { p: PaperHit; e: { id: string } } => !!o.e)
    .slice(0, OTHERS);
  if (others.length === 0) return null;
  const named = others.map(({ p }) => `${p.title ? `“${p.title}”` : `doi:${p.doi}`}${p.statesAskedFacts === 'cited' ? ' (citing them)' : ''}`);
  return draft(
    `Other papers in the corpus state the same values (${values.join(', ')}): ${named.join('; ')}.`,
    others.map((o) => o.e.id),
  );
}
