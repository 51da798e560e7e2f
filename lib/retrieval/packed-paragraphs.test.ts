import v8 from 'node:v8';
import { describe, expect, it } from 'vitest';
import { fixtureCorpus, indexOf } from '../../scripts/test-support/retrieval-fixtures.ts';
import type { IndexedParagraph } from './indexed.ts';
import { type PackedParagraphs, ParagraphPacker, unpackParagraphs } from './packed-paragraphs.ts';

const packParagraphs = (paragraphs: Iterable<IndexedParagraph>): PackedParagraphs => {
  const packer = new ParagraphPacker();
  for (const p of paragraphs) packer.add(p);
  return packer.done();
};
// The index's paragraphs are packed as built: these are copies of them as plain objects, facets unpacked.
const plain = (p: IndexedParagraph): IndexedParagraph => ({ ...p, facets: p.facets, sentences: p.sentences, sentenceSpans: p.sentenceSpans });

const built = async () => new Map([...(await indexOf(fixtureCorpus())).paragraphs].map(([id, p]) => [id, plain(p)]));

describe('packed paragraphs', () => {
  it('read back through V8 serialisation, give every paragraph its facets, sentences, spans and table cells as built', async () => {
    const paragraphs = await built();
    // A table row's paragraph keeps its cells.
    const [id] = paragraphs.keys();
    const cells = { tableId: 't1', label: 'Table 1', row: 2, cells: [{ column: 0, header: 'ASR (Ω cm2)', start: 0, end: 4 }] };
    paragraphs.set(id, { ...paragraphs.get(id)!, table: cells });
    const read = unpackParagraphs(v8.deserialize(v8.serialize(packParagraphs(paragraphs.values()))));
    expect([...read.keys()]).toEqual([...paragraphs.keys()]);
    let quantities = 0;
    for (const [id, p] of paragraphs) {
      const q = read.get(id)!;
      for (const key of ['paperId', 'ordinal', 'externalId', 'section', 'text', 'role', 'method', 'table'] as const) expect(q[key]).toEqual(p[key]);
      // Sentences first on some, facets first on others: either order gives the same.
      if (p.ordinal % 2) expect(q.sentences).toEqual(p.sentences);
      expect(q.facets).toEqual(p.facets);
      expect(q.sentences).toEqual(p.sentences);
      expect(q.sentenceSpans).toEqual(p.sentenceSpans);
      quantities += q.facets.quantities.length;
      // A sentence's quantities are the paragraph's own objects, as when built.
      expect(q.sentences.flatMap((s) => s.quantities).every((x, i) => x === q.facets.quantities[i])).toBe(true);
    }
    expect(quantities).toBeGreaterThan(5);
    expect(read.get(id)!.table).toEqual(cells);
  });

  it('unpacks a paragraph once, and a copy of one sent to another thread does not carry the whole store', async () => {
    const read = unpackParagraphs(packParagraphs((await built()).values()));
    const p = [...read.values()].find((x) => x.sentences.length > 1)!;
    expect(p.facets).toBe(p.facets);
    expect(p.sentences).toBe(p.sentences);
    expect(p.sentenceSpans).toBe(p.sentenceSpans);
    const copy = structuredClone(p) as Partial<IndexedParagraph>;
    expect(copy.text).toBe(p.text);
    expect(v8.serialize(copy).length).toBeLessThan(4 * p.text.length + 1000);
  });

  it('refuses a paragraph whose quantities are not its sentences', async () => {
    const [p] = (await built()).values();
    const odd: IndexedParagraph = { ...p, facets: { ...p.facets, quantities: [{ dimension: 'temperature', values: [873.15], range: false, text: '600 °C' }] } };
    expect(() => packParagraphs([odd])).toThrow(/not its sentences/);
  });
});
