import { quantityFacet, quantityMatch } from '../../retrieval/facets.ts';
import { parseQuantities } from '../../structure/quantities.ts';
import { defineCheck } from './types.ts';

/** The sentence's values, found in what it cites by canonical number and unit within tolerance (a value inside a stated range counts). */
export const quantityCheck = defineCheck({
  field: 'quantities',
  run(sentence, citedTexts) {
    const have = citedTexts.flatMap((t) => parseQuantities(t).map(quantityFacet));
    const found: string[] = [];
    const missing: string[] = [];
    for (const q of parseQuantities(sentence)) (quantityMatch(have, q) > 0 ? found : missing).push(q.text);
    return { found, missing };
  },
});
