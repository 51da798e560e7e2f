import { askedFactsCheck } from './coverage.ts';
import { quantityMatch } from './facets.ts';
import type { RetrievalIndex } from './index.ts';
import type { FactStatement, PaperHit } from './papers.ts';
import type { QuestionAnalysis } from './question.ts';

/**
 * Whose result a stated fact is. Several papers may state the same value: the paper that measured it ("we
 * obtained 450 mW cm−2 …", a Results paragraph) and papers that cite it ("… 450 mW cm−2 was reported by Li et
 * al. [12]"). A "which paper" question means the first; the others are worth saying, not worth ranking first.
 */
// Cues that a sentence reports someone else's result: a reference mark, "et al.", "reported by/in", earlier work.
const CITES =
  /\bet al\b|\[\s*\d+(?:\s*[,–-]\s*\d+)*\s*\]|\(\s*\d+(?:\s*[,–-]\s*\d+)*\s*\)\s*[.,;]?$|\b(?:was|were|has been|have been|been) (?:previously )?reported\b|\breported (?:by|in|earlier|previously)\b|\bprevious(?:ly)? (?:reported|work|studies|study)\b|\b(?:literature|refs?\.)\b/i;
// Cues that it reports the paper's own: first person, "this work", "the present study".
const OWN = /\b(?:we|our)\b|\b(?:this|the present|the current) (?:work|study|paper)\b/i;

/** Whether a sentence states a result as the paper's own (or neutrally, in its Results) or as one it cites. */
export function statementKind(sentence: string, section: string | null): FactStatement {
  if (OWN.test(sentence)) return 'own';
  if (CITES.test(sentence)) return 'cited';
  return section && /introduction|background|review/i.test(section) ? 'cited' : 'own';
}

/**
 * How a paper states the question's values: 'own' when some sentence stating one of them is its own result,
 * 'cited' when every such sentence cites another work, null when it states none (or the question has none).
 */
export function factStatement(index: RetrievalIndex, analysis: QuestionAnalysis, paperId: string): FactStatement | null {
  if (analysis.quantities.length === 0) return null;
  let cited = false;
  for (const pid of index.papers.get(paperId)?.paragraphIds ?? []) {
    const p = index.paragraphs.get(pid)!;
    if (!analysis.quantities.some((q) => quantityMatch(p.facets.quantities, q) > 0)) continue;
    for (const [i, s] of p.sentences.entries()) {
      if (!analysis.quantities.some((q) => quantityMatch(s.quantities, q) > 0)) continue;
      const span = p.sentenceSpans[i];
      if (statementKind(p.text.slice(span.start, span.end), p.section) === 'own') return 'own';
      cited = true;
    }
  }
  return cited ? 'cited' : null;
}

/**
 * Among the first `window` papers, those that state every value and technique the question states are marked
 * with how they state them; when the first of them only cites the values and another reports them as its own
 * result, that one is moved first. Otherwise the order is kept.
 */
export function preferOwnResults(
  index: RetrievalIndex,
  analysis: QuestionAnalysis,
  papers: PaperHit[],
  states = askedFactsCheck(index, analysis),
  window = 5,
): PaperHit[] {
  if (analysis.quantities.length === 0) return papers;
  const marked = papers.map((p, i) => {
    if (i >= window || !p.paperId || !index.papers.has(p.paperId) || !states(p.paperId)) return p;
    const statement = factStatement(index, analysis, p.paperId);
    return statement ? { ...p, statesAskedFacts: statement } : p;
  });
  const stating = marked.filter((p) => p.statesAskedFacts);
  if (stating.length < 2 || marked[0] !== stating[0] || stating[0].statesAskedFacts !== 'cited') return marked;
  const own = stating.find((p) => p.statesAskedFacts === 'own');
  return own ? [own, ...marked.filter((p) => p !== own)] : marked;
}
