import v8 from 'node:v8';
import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import { LexicalIndex, type LexicalDoc } from './lexical-index.ts';

describe('LexicalIndex.query', () => {
  // In a small library every word is in more than 10 % of the documents, so only the rarest three survive.
  const index = new LexicalIndex(
    [
      { id: 'a', fields: { text: ['nico2o4', 'nanowir', 'nickel', 'foam', 'hydrotherm'] } },
      { id: 'b', fields: { text: ['lscf', 'cathod', 'power', 'densiti'] } },
      { id: 'c', fields: { text: ['nickel', 'anod', 'power'] } },
    ],
    { text: 1 },
  );
  it('keeps the rarest words the index has, whatever words it lacks', () => {
    const hits = index.query(['electrospin', 'which', 'report', 'nico2o4', 'nickel', 'foam']);
    expect(hits[0]?.id).toBe('a');
  });
  it('returns nothing for words no document has', () => {
    expect(index.query(['quantum', 'graviti'])).toEqual([]);
  });
  it('counts document frequency over all fields, once per document', () => {
    const twoFields = new LexicalIndex(
      [
        { id: 'a', fields: { text: ['nickel', 'nickel'], structure: ['nickel'] } },
        { id: 'b', fields: { text: ['cobalt'], structure: ['p:H2 production rate'] } },
      ],
      { text: 1, structure: 1.5 },
    );
    expect(twoFields.documentFrequency('nickel')).toBe(1);
    expect(twoFields.documentFrequency('p:H2 production rate')).toBe(1);
    // A term holding spaces is searchable by its words, as MiniSearch's tokeniser made it.
    expect(twoFields.query(['p:H2 production rate'], { maxDocumentShare: 1 }).map((h) => h.id)).toEqual(['b']);
  });
});

describe('LexicalIndex.docsHolding', () => {
  it('says which of some documents hold a term in a field, as their own term lists do, built and read back', () => {
    const docs = library(7, 400);
    const built = new LexicalIndex(docs, { text: 1, structure: 1.5, title: 1.5, section: 0.3 });
    const restored = LexicalIndex.fromData(v8.deserialize(v8.serialize(built.toData())));
    const some = [0, 3, 17, 150, 151, 399];
    for (const index of [built, restored])
      for (const term of ['w0', 'w1', 'w5', 'w40', 'absent'])
        for (const field of ['text', 'title']) {
          const expected = some.filter((d) => (docs[d].fields[field] ?? []).join(' ').split(' ').includes(term));
          expect(
            [...index.docsHolding(field, term, some)].sort((a, b) => a - b),
            `${field}:${term}`,
          ).toEqual(expected);
        }
    expect(built.docOf(docs[150].id)).toBe(150);
    expect(built.docsHolding('no-such-field', 'w0', some).size).toBe(0);
  });
});

/** A seeded random library: Zipf-like words in four fields, a few terms holding spaces. */
function library(seed: number, size: number): LexicalDoc[] {
  let s = seed;
  const rnd = () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
  const word = () => `w${Math.floor(1 / (0.002 + rnd()))}`;
  const list = (max: number) => Array.from({ length: Math.floor(rnd() * max) }, () => (rnd() < 0.02 ? `${word()} ${word()}` : word()));
  return Array.from({ length: size }, (_, i) => ({
    id: `d${i}`,
    fields: { text: list(60), structure: list(8), title: list(10), section: list(3) },
  }));
}

describe('LexicalIndex ranks as MiniSearch 7.2 did (the library it replaced)', () => {
  const boosts = { text: 1, structure: 1.5, title: 1.5, section: 0.3 };
  const docs = library(7, 600);
  const fields = Object.keys(boosts);
  const reference = new MiniSearch<Record<string, string>>({
    fields,
    idField: 'id',
    tokenize: (s: string) => (s ? s.split(' ') : []),
    processTerm: (t: string) => t || null,
    searchOptions: { boost: boosts, combineWith: 'OR' },
  });
  reference.addAll(docs.map((d) => ({ id: d.id, ...Object.fromEntries(fields.map((f) => [f, d.fields[f].join(' ')])) })));
  const queries = library(11, 150).map((d) => [...d.fields.title, ...d.fields.structure]);

  it('gives the same documents, scores and order of equal scores, built, built in slices and read back', async () => {
    const built = new LexicalIndex(docs, boosts);
    const sliced = await LexicalIndex.build(docs, boosts, async () => {});
    const restored = LexicalIndex.fromData(v8.deserialize(v8.serialize(sliced.toData())));
    const variants: { fields?: string[]; filter?: (id: string) => boolean }[] = [
      {},
      { fields: ['text', 'section'] },
      { fields: ['structure', 'text'] },
      { filter: (id: string) => id.endsWith('3') },
    ];
    let compared = 0;
    for (const terms of queries) {
      for (const v of variants) {
        // The reference is asked for what the index searches: the same kept terms, as MiniSearch was asked.
        const kept = [...new Set(terms)]
          .map((t) => ({ t, df: built.documentFrequency(t) }))
          .filter((x) => x.df > 0)
          .sort((a, b) => a.df - b.df)
          .filter((x, i) => i < 3 || x.df <= 0.5 * built.size)
          .map((x) => x.t);
        if (!kept.length) continue;
        const expected = reference
          .search(
            { combineWith: 'OR', queries: kept },
            { ...(v.fields ? { fields: v.fields } : {}), ...(v.filter ? { filter: (r) => v.filter!(r.id as string) } : {}) },
          )
          .slice(0, 50)
          .map((h) => ({ id: h.id as string, score: h.score }));
        for (const index of [built, sliced, restored]) expect(index.query(terms, { ...v, limit: 50, maxDocumentShare: 0.5 })).toEqual(expected);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(400);
  });
});
