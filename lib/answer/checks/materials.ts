import { materialTerms } from '../../retrieval/facets.ts';
import { textFacets } from '../../structure/terms.ts';
import { defineCheck } from './types.ts';

/** The sentence's materials, found in what it cites by canonical key (so spellings meet). */
export const materialCheck = defineCheck({
  field: 'materials',
  run(sentence, citedTexts) {
    const cited = new Set<string>();
    for (const t of citedTexts) {
      const f = textFacets(t);
      for (const m of materialTerms(f.formulas, f.materials)) cited.add(m);
    }
    const f = textFacets(sentence);
    const materials = [...materialTerms(f.formulas, f.materials)];
    return { found: materials.filter((m) => cited.has(m)), missing: materials.filter((m) => !cited.has(m)) };
  },
});
