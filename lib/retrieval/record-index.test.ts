import { describe, expect, it } from 'vitest';
import type { CorpusRecord } from '../db/retrieval-corpus.ts';
import { pagesOf, fixtureRecords } from '../../scripts/test-support/retrieval-fixtures.ts';
import { structuredTerms } from '../structure/terms.ts';
import { lazyRecordIndex } from './record-index.ts';

/** Invented recipes: the fixture's, at other temperatures and with other targets. */
const recipes: CorpusRecord[] = ['BaCe0.8Y0.2O3', 'BaZr0.8Y0.2O3', 'SrCeO3', 'LaCoO3', 'Gd0.1Ce0.9O1.95', 'La0.6Sr0.4CoO3', 'NiO'].map((target, i) => {
  const [r] = fixtureRecords;
  const heating = { heating_temperature: [{ values: [900 + 100 * i], units: '°C' }] };
  return {
    ...r,
    id: `fx-record-${i + 1}`,
    title: target,
    data: { ...r.data, targets_string: [target], operations: [{ type: 'HeatingOperation', string: 'calcined', conditions: heating }] },
  };
});

describe('records index', () => {
  it('is built from pages of rows: the same records and rankings whatever the page size', async () => {
    const asked: (string | null)[] = [];
    const paged = await lazyRecordIndex(recipes.length, pagesOf(recipes, 2, asked), new Map()).get();
    const whole = await lazyRecordIndex(recipes.length, pagesOf(recipes, 1000), new Map()).get();
    // Four pages of two and the empty one that ends them.
    expect(asked).toEqual([null, 'fx-record-2', 'fx-record-4', 'fx-record-6', 'fx-record-7']);
    expect(paged.records.size).toBe(recipes.length);
    for (const r of recipes) expect(paged.records.get(r.id)).toEqual(whole.records.get(r.id));
    const query = structuredTerms('BaZr0.8Y0.2O3 calcined at 1000 °C');
    expect(paged.lexical.query(query, { limit: 10 })).toEqual(whole.lexical.query(query, { limit: 10 }));
    expect(paged.lexical.query(query, { limit: 1 })[0].id).toBe('fx-record-2');
  });

  it('gives back each record as rendered: text, paper, facets and values', async () => {
    const paperByDoi = new Map([['10.9999/fx.recipe.only', 'fx-paper']]);
    const index = await lazyRecordIndex(recipes.length, pagesOf(recipes, 3), paperByDoi).get();
    const r = index.records.get('fx-record-3')!;
    expect(r).toMatchObject({ id: 'fx-record-3', paperId: 'fx-paper', doi: '10.9999/fx.recipe.only', kind: 'solid-state-recipe', title: 'SrCeO3' });
    expect(r.text).toContain('SrCeO3');
    expect(r.text).toContain('1100');
    expect([...r.facets.materials]).toContain('f:CeO3Sr');
    expect(r.facets.quantities).toEqual([{ dimension: 'temperature', values: [1373.15], range: false, text: expect.stringContaining('1100') }]);
    // Each read is a new object: a caller may not change what the index holds.
    r.facets.materials.clear();
    expect(index.records.get('fx-record-3')!.facets.materials.size).toBeGreaterThan(0);
    expect(index.records.get('no-such-record')).toBeUndefined();
  });
});
