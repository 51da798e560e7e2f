import { held } from '../bibliography.ts';
import type { PaperBibliography } from '../../db/papers.ts';
import type { BibliographicField } from '../../pipelines/types.ts';
import { bare, bestSentenceOf, paperName, quote } from './text.ts';
import { type AnswerShapeComposer, type DraftSentence, draft, frame } from './types.ts';

/** Authors named before "and N others". */
const NAMED_AUTHORS = 12;

/**
 * A question about a paper's publication (lib/answer/bibliography.ts): the paper retrieval found, what the library
 * holds of the field asked (its authors, journal or year) or that it holds none, then the paper's sentence that
 * answers the rest of the question. The field is the library's record of the paper, not a passage, so its sentence
 * frames the quote and gets no verdict; an answer without the field answers none of what was asked (confidence 0).
 */
export const bibliographyShape: AnswerShapeComposer = {
  name: 'bibliography',
  compose(result) {
    const b = result.bibliography;
    const top = result.papers[0];
    const e = b && top && result.evidence.find((x) => top.evidenceIds.includes(x.id));
    if (!b || !e) return null;
    const name = paperName(e);
    const has = held(b.paper, b.field);
    const sentences: DraftSentence[] = [frame(has ? fieldSentence(name, b.paper, b.field) : missingSentence(name, b.field), [e.id])];
    sentences.push(draft(`It states: ${quote(bare(bestSentenceOf(e)))}.`, [e.id]));
    return { shape: 'bibliography', sentences, answered: has ? 1 : 0 };
  },
};

function fieldSentence(name: string, p: PaperBibliography, field: BibliographicField): string {
  if (field === 'authors') {
    const names = p.authors;
    const shown = names.length > NAMED_AUTHORS ? [...names.slice(0, NAMED_AUTHORS), `${names.length - NAMED_AUTHORS} others`] : names;
    const list = shown.length > 1 ? `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}` : shown[0];
    return `The paper is ${name}, by ${list}${p.year ? ` (${p.year})` : ''}.`;
  }
  if (field === 'venue') return `The paper is ${name}, published in ${p.journal}${p.year ? ` in ${p.year}` : ''}.`;
  return `The paper is ${name}, published in ${p.year}${p.journal ? ` in ${p.journal}` : ''}.`;
}

const FIELD_WORDS: Record<BibliographicField, string> = { authors: 'no author list', venue: 'no journal', year: 'no publication year' };

function missingSentence(name: string, field: BibliographicField): string {
  return `The paper is ${name}, but the library holds ${FIELD_WORDS[field]} for it.`;
}
