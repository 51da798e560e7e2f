import type { Evidence } from '../../evidence/model.ts';
import { isElementTerm } from '../../retrieval/facets.ts';
import type { PaperHit } from '../../retrieval/papers.ts';
import { asksForPaperList } from '../../retrieval/question.ts';
import { bare, bestSentenceOf, paperName, quote } from './text.ts';
import { type AnswerShapeComposer, type DraftSentence, draft, frame } from './types.ts';

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
    if (asksForPaperList(result.analysis)) return everyPaper(result);
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

/** Papers a plural answer lists at most. */
const LISTED = 8;

/**
 * A plural "which papers" question: every paper among the ranked ones whose evidence names what the question names
 * (any of its materials; all of them would refuse a paper writing BZY for "Y-doped BaZrO3"), best first, each once
 * with the sentence that shows it. Back matter and reference lists are never evidence (lib/ingest/non-content.ts).
 */
function everyPaper(result: Parameters<AnswerShapeComposer['compose']>[0]) {
  const asked = result.analysis.materials.filter((m) => !isElementTerm(m));
  const property = new Set(result.analysis.properties);
  const namesMaterial = (e: Evidence) => !asked.length || e.matched.materials.some((m) => asked.includes(m));
  const namesProperty = (e: Evidence) => e.matched.properties.some((k) => property.has(k));
  // Each paper shown by its item that names the material and the property asked ("the yield of Al2O3"), else by its
  // first naming the material; the papers whose evidence names both come first (a ranking may put a paper that
  // only uses the material as a support above one that measured what was asked).
  const shown = result.papers
    .map((p) => {
      const items = result.evidence.filter((x) => p.evidenceIds.includes(x.id) && namesMaterial(x));
      return { p, e: items.find(namesProperty) ?? items[0] };
    })
    .filter((x): x is { p: PaperHit; e: Evidence } => !!x.e);
  const listed = [...shown.filter(({ e }) => namesProperty(e)), ...shown.filter(({ e }) => !namesProperty(e))].slice(0, LISTED);
  if (!listed.length) return null;
  const sentences: DraftSentence[] = [
    frame(
      `${listed.length === 1 ? 'One paper' : `${listed.length} papers`} among those retrieved ${listed.length === 1 ? 'names' : 'name'} what the question asks about, best first:`,
      [],
    ),
    ...listed.map(({ e }) => draft(`${paperName(e)}: ${quote(bare(bestSentenceOf(e)))}.`, [e.id])),
  ];
  // What the list leaves out: the corpus's other papers naming the same materials (not all of them about what was asked).
  const more = (result.papersNaming ?? 0) - listed.length;
  if (more > 0)
    sentences.push(
      frame(
        `${more} more paper${more === 1 ? '' : 's'} in the corpus name${more === 1 ? 's' : ''} ${materialNames(result.analysis)}; ask about one of them by its title.`,
        [],
      ),
    );
  return { shape: 'which-paper' as const, sentences };
}

/** The question's materials as it writes them ("Y-doped BaZrO3 and CeO2"). */
function materialNames(analysis: Parameters<AnswerShapeComposer['compose']>[0]['analysis']): string {
  const names = [...new Set(analysis.materials.filter((m) => !isElementTerm(m)).map((m) => analysis.materialNames[m] ?? m.replace(/^[fm]:/, '')))];
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : names[0];
}

export function sameFactSentence(values: string[], papers: PaperHit[], evidence: { id: string; matched: { quantities: string[] } }[]): DraftSentence | null {
  // Each other paper is cited by the item that shows the values: a paper whose retrieved items do not show them all
  // (it states them in a paragraph not retrieved, or shows the temperature but not the value) is not named, for its
  // citation could not show the claim.
  const showsAll = (x: { matched: { quantities: string[] } }) => values.every((v) => x.matched.quantities.includes(v));
  const others = papers
    .filter((p) => p.statesAskedFacts)
    .map((p) => ({ p, e: evidence.find((x) => p.evidenceIds.includes(x.id) && showsAll(x)) }))
    .filter((o): o is { p: PaperHit; e: { id: string; matched: { quantities: string[] } } } => !!o.e)
    .slice(0, OTHERS);
  if (others.length === 0) return null;
  const named = others.map(({ p }) => `${p.title ? `“${p.title}”` : `doi:${p.doi}`}${p.statesAskedFacts === 'cited' ? ' (citing them)' : ''}`);
  return draft(
    `Other papers in the corpus state the same values (${values.join(', ')}): ${named.join('; ')}.`,
    others.map((o) => o.e.id),
  );
}
