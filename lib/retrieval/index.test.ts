import { describe, expect, it } from 'vitest';
import { plainTerms } from '../structure/terms.ts';
import { normalise, type TextEmbedder } from '../embedding/embedder.ts';
import { fitLocalHashEmbedder, localTextEmbedder } from '../embedding/local-hash.ts';
import { corpusOf, indexOf } from '../../scripts/test-support/retrieval-fixtures.ts';
import { buildRetrievalIndex, withDense } from './index.ts';
import { embedPassages } from './passage-vectors.ts';

// An invented first paragraph the way some corpora store it: title twice, authors run together with their marks,
// an affiliation, an e-mail, then the abstract.
const abstract = 'The Qx2O3 cathode was prepared by a sol-gel route and reached a peak power density of 1.1 W cm−2 at 700 °C.';
const firstParagraph = `A Qx2O3 Cathode A Qx2O3 Cathode LovelaceAda1*CurieMarie2 1Department of Chemistry, University of Nowhere, Springfield 12345 ada@nowhere.edu 4321 ${abstract}`;

describe('the retrieval index', () => {
  it('indexes and quotes a run-together first paragraph from its abstract on, at the stored offsets', async () => {
    const index = await indexOf(
      corpusOf([
        { id: 'qx', doi: '10.9999/qx', title: 'A Qx2O3 cathode', paragraphs: [{ text: firstParagraph }, { text: 'Lovelace measured nothing here.' }] },
      ]),
    );
    const p = index.paragraphs.get('qx:p1');
    expect(p).toBeDefined();
    expect(p!.text).not.toContain('Lovelace');
    expect(p!.text).toHaveLength(firstParagraph.length);
    const [first] = p!.sentenceSpans;
    expect(firstParagraph.slice(first.start, first.end)).toBe(abstract);
    // The author's name finds only the paragraph that names her in its prose; the abstract is still found.
    expect((await index.raw.lexical.query(plainTerms('Lovelace'))).map((h) => h.id)).toEqual(['qx:p2']);
    expect((await index.raw.lexical.query(plainTerms('sol-gel route peak power density'))).map((h) => h.id)).toContain('qx:p1');
  });
});

describe('a cold embedding model', () => {
  it('is not waited for: the stand-in embeds meanwhile, the index says so, and the model’s pass swaps in', async () => {
    const corpus = corpusOf([
      { id: 'a', doi: '10.9999/a', title: 'A cathode', paragraphs: [{ text: 'The LSCF cathode reached 1.1 W cm−2 at 700 °C.' }] },
      { id: 'b', doi: '10.9999/b', title: 'An anode', paragraphs: [{ text: 'The Ni-YSZ anode was sintered at 1350 °C.' }] },
    ]);
    const standIn = localTextEmbedder(fitLocalHashEmbedder(corpus.paragraphs.map((p) => p.text)));
    const embedded = new Set<string>();
    // A "model" that remembers what it embedded, as the cached embedder does in the database.
    const model: TextEmbedder = {
      id: 'test-model',
      dimensions: 3,
      missing: async (texts) => texts.filter((t) => !embedded.has(t)).length,
      embed: async (texts) =>
        texts.map((t) => {
          embedded.add(t);
          return normalise(new Float32Array([t.length, 1, t.includes('cathode') ? 5 : 0]));
        }),
    };
    const cold = await buildRetrievalIndex(corpus, model, { whileCold: standIn });
    expect(cold.embedderId).toBe(standIn.id);
    expect(cold.pendingEmbedder).toBe(model);
    expect(cold.embedderNote).toMatch(/test-model is embedding \d+ passages .* in the background/);
    expect(embedded.size).toBe(0);
    const warm = withDense(cold, model, await embedPassages(cold, model));
    expect(warm).toMatchObject({ embedderId: 'test-model', embedderNote: null, pendingEmbedder: null });
    expect(warm.raw.dense.dimensions).toBe(3);
    expect(warm.raw.lexical).toBe(cold.raw.lexical);
    // The model read each paragraph once, and nothing else.
    expect([...embedded].sort()).toEqual(corpus.paragraphs.map((p) => p.text).sort());
    // Once everything is embedded, a build uses the model directly.
    const again = await buildRetrievalIndex(corpus, model, { whileCold: standIn });
    expect(again).toMatchObject({ embedderId: 'test-model', pendingEmbedder: null, embedderNote: null });
  });
});
