import { abstainShape } from './abstain.ts';
import { bibliographyShape } from './bibliography.ts';
import { descriptiveShape } from './descriptive.ts';
import { designShape } from './design.ts';
import { rankingShape } from './ranking.ts';
import { comparisonShape } from './comparison.ts';
import { synthesisShape } from './synthesis.ts';
import { tableShape } from './table.ts';
import type { AnswerShapeComposer } from './types.ts';
import { valueShape } from './value.ts';
import { whichPaperShape } from './which-paper.ts';

/**
 * The extractive answer shapes, tried in this order; the first that composes an answer wins. Adding a shape: a
 * file in this folder and a line here. A synthesis question the recipe records answer is answered from them even
 * where the paragraphs alone would refuse, so its shape comes first; a comparison that names its sides says what
 * each side has (and which it lacks) before any refusal of the question as a whole. A question about who wrote a
 * paper (or where, when) is answered from the library's record of the paper retrieval found, before what it states.
 */
export const SHAPES: readonly AnswerShapeComposer[] = [
  synthesisShape,
  comparisonShape,
  abstainShape,
  bibliographyShape,
  designShape,
  rankingShape,
  tableShape,
  valueShape,
  whichPaperShape,
  descriptiveShape,
];
