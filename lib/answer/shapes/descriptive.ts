import { withArticle } from '../../common/format.ts';
import type { Evidence } from '../../evidence/model.ts';
import { splitSentences } from '../../structure/sentences.ts';
import { propertyEntry } from '../../structure/properties.ts';
import { QUESTION_FRAME_TERMS } from '../../retrieval/question.ts';
import { plainTerms } from '../../structure/terms.ts';
import { bestSentenceOf, paperName } from './text.ts';
import { type AnswerShapeComposer, type DraftSentence, draft, frame } from './types.ts';
import { readableText } from '../../structure/terms.ts';

/** Up to `n` sentences by maximal marginal relevance: relevant to the question, not repeating each other. */
export function mmrSentences(items: Evidence[], question: string, n = 4, lambda = 0.7): { item: Evidence; text: string }[] {
  const q = new Set(plainTerms(question).filter((t) => !QUESTION_FRAME_TERMS.has(t)));
  const candidates = items.flatMap((item, rank) =>
    splitSentences(item.text).map((s) => {
      const terms = new Set(plainTerms(s.text));
      const hits = [...q].filter((t) => terms.has(t)).length;
      // Relevance: the share of the question's content words it states, a little less for lower-ranked items.
      return { item, text: s.text.trim(), terms, relevance: q.size ? hits / q.size - 0.02 * rank : 0 };
    }),
  );
  const chosen: typeof candidates = [];
  const similarity = (a: Set<string>, b: Set<string>) => {
    let shared = 0;
    for (const t of a) if (b.has(t)) shared++;
    return shared / Math.max(1, a.size + b.size - shared);
  };
  while (chosen.length < n) {
    let best: (typeof candidates)[number] | null = null;
    let bestScore = -Infinity;
    for (const c of candidates) {
      if (chosen.includes(c) || c.relevance <= 0 || c.text.length < 30) continue;
      const redundancy = chosen.length ? Math.max(...chosen.map((x) => similarity(x.terms, c.terms))) : 0;
      const score = lambda * c.relevance - (1 - lambda) * redundancy;
      if (score > bestScore) [best, bestScore] = [c, score];
    }
    if (!best) break;
    chosen.push(best);
  }
  return chosen.map(({ item, text }) => ({ item, text }));
}

/** How / why / descriptive questions: the most informative sentences, diverse, grouped by paper, each cited. */
export const descriptiveShape: AnswerShapeComposer = {
  name: 'descriptive',
  compose(result) {
    let picked = mmrSentences(result.evidence, result.analysis.body);
    // Retrieval found evidence but no sentence shares the question's words: the best item's best sentence, so the
    // answer still says what the corpus holds rather than declining where retrieval did not.
    if (picked.length === 0 && result.evidence[0]) picked = [{ item: result.evidence[0], text: bestSentenceOf(result.evidence[0]) }];
    if (picked.length === 0) return null;
    const order = [...new Set(picked.map((p) => p.item.paperId ?? p.item.id))];
    const sentences: DraftSentence[] = [];
    // A value question that ends here found no value of the asked kind: say so before the closest passages.
    const { analysis } = result;
    const noValue = analysis.intent === 'value' && !!analysis.askedDimension && !result.value;
    if (noValue) {
      const property = analysis.properties.map((k) => propertyEntry(k)?.label ?? k)[0] ?? analysis.askedDimension;
      const of = analysis.entityWords.length ? ` for ${analysis.entityWords.join(', ')}` : '';
      sentences.push(frame(`No retrieved passage states ${withArticle(`${property} value`)}${of}; the passages closest to the question say:`, []));
    }
    for (const paper of order) {
      const group = picked.filter((p) => (p.item.paperId ?? p.item.id) === paper);
      sentences.push(frame(`${paperName(group[0].item)} reports:`, [group[0].item.id]));
      for (const p of group) sentences.push(draft(readableText(p.text), [p.item.id]));
    }
    // The value asked for is not among them: the passages answer none of the question (see AnswerDraft.answered).
    return { shape: 'descriptive', sentences, ...(noValue ? { answered: 0 } : {}) };
  },
};
