import { describe, expect, it } from 'vitest';
import { createTrace } from '../common/trace.ts';
import type { RetrievalTupleRow } from '../db/graph-views.ts';
import { fitLocalHashEmbedder, localTextEmbedder } from '../embedding/local-hash.ts';
import { lazyGraphIndex } from './graph-index.ts';
import { graphRetrieve, topCandidates } from './graph-search.ts';
import { countTermMatches, embeddedGraphSource, type GraphCandidateSource } from './graph-source.ts';
import { analyseQuestion } from './question.ts';
import { asOnePage, tupleRow } from '../../scripts/test-support/retrieval-fixtures.ts';

// Invented tuples (no corpus text): one claim about a named material, one about unnamed "single crystals" with the
// same value, and many other tuples about single crystals, so "single" and "crystals" are common words here.
const row = (id: string, subject: [string, string], relation: string, object: [string, string], extra: Partial<RetrievalTupleRow> = {}) =>
  tupleRow(id, subject, relation, object, `paper-${id}:p1`, extra);

const TC: [string, string] = ['p:critical-temperature', 'superconducting transition temperature'];
const rows: RetrievalTupleRow[] = [
  row('named', ['n:qkco', 'QKCO'], 'has_property', TC, { value: 21.5, valueMax: 21.5, unit: 'K' }),
  row('crystals', ['n:singlecrystals', 'single crystals'], 'has_property', TC, { value: 21.5, valueMax: 21.5, unit: 'K' }),
  ...Array.from({ length: 30 }, (_, i) =>
    row(`filler${String(i).padStart(2, '0')}`, ['n:singlecrystals', 'single crystals'], 'grown_from', [`n:flux${i}`, `flux ${i}`]),
  ),
];

describe('graphRetrieve', () => {
  it('weighs the rare name a question is about above its common words', async () => {
    const embedder = localTextEmbedder(fitLocalHashEmbedder(rows.flatMap((r) => [r.subjectLabel, r.objectLabel])));
    const graph = await lazyGraphIndex(asOnePage(rows), embedder).get();
    const question = 'Which paper reports a Tc of 21.5 K for single crystals of QKCO?';
    const analysis = analyseQuestion(question);
    const { step } = createTrace();
    const { hits } = await graphRetrieve(embeddedGraphSource(graph), analysis, question, { embedLabels: (t) => embedder.embed(t), step });
    // Term overlap alone ranks the "single crystals" tuple first (two keywords against one).
    expect(hits[0].tuple.id).toBe('named');
    expect(hits.findIndex((h) => h.tuple.id === 'crystals')).toBeGreaterThan(0);
  });

  it('lets the paragraphs nearest the question in meaning bring in tuples no keyword finds, and rank by their nearness', async () => {
    const embedder = localTextEmbedder(fitLocalHashEmbedder(rows.flatMap((r) => [r.subjectLabel, r.objectLabel])));
    const graph = await lazyGraphIndex(asOnePage(rows), embedder).get();
    // No tuple holds these words: string and canonical retrieval find nothing.
    const question = 'Which crucible chemistry did the growers choose?';
    const analysis = analyseQuestion(question);
    const search = (entry?: { id: string; score: number }[]) =>
      graphRetrieve(embeddedGraphSource(graph), analysis, question, {
        embedLabels: (t) => embedder.embed(t),
        step: createTrace().step,
        entry: entry && Promise.resolve(entry),
      });
    expect((await search()).hits).toEqual([]);
    const { hits } = await search([
      { id: 'paper-filler07:p1', score: 0.81 },
      { id: 'paper-filler03:p1', score: 0.74 },
      { id: 'paper-named:p1', score: 0.52 },
    ]);
    expect(hits.map((h) => h.tuple.id)).toEqual(['filler07', 'filler03', 'named']);
    expect(hits[0].score).toBeGreaterThan(hits[1].score);
  });
});

describe('graphRetrieve by ordinal', () => {
  it('ranks by the embedded source’s own ordinals exactly as by ids numbered as they come (the Neo4j source’s way)', async () => {
    // Invented tuples: materials sharing properties and flux partners, so that string, canonical, title and dense
    // entry all have candidates, with ties.
    const materials = ['QKCO', 'LSCF', 'TiO2', 'BaZrO3', 'CeO2'];
    const many = Array.from({ length: 240 }, (_, i) =>
      row(
        `t${String((i * 7919) % 240).padStart(3, '0')}`,
        [`m:${materials[i % 5]}`, materials[i % 5]],
        i % 3 ? 'has_property' : 'grown_from',
        i % 3 ? TC : [`n:flux${i % 11}`, `flux ${i % 11}`],
        i % 3 ? { value: 10 + (i % 13), valueMax: 10 + (i % 13), unit: 'K' } : {},
      ),
    );
    const all = [...rows, ...many].sort((a, b) => (a.id < b.id ? -1 : 1));
    const embedder = localTextEmbedder(fitLocalHashEmbedder(all.flatMap((r) => [r.subjectLabel, r.objectLabel])));
    const graph = await lazyGraphIndex(asOnePage(all), embedder).get();
    const own = embeddedGraphSource(graph);
    // Its ordinals ascend with the ids here, so its ties are broken by ordinal, the other's by comparing ids.
    expect(own.ordinals?.inIdOrder).toBe(true);
    // A source that lists ids, each look-up read from the tuples themselves rather than from the ordinal lists.
    const every = [...graph.tuples.values()];
    const byIds: GraphCandidateSource = {
      ...own,
      ordinals: undefined,
      termMatches: async (terms, max, min) => countTermMatches(await own.termPostings(terms, max), min),
      entityTuples: async (keys) =>
        new Map(
          keys
            .filter((k) => graph.entityByKey.has(k))
            .map((k) => [k, every.filter((t) => t.subjectCanonical === k || t.objectCanonical === k).map((t) => t.id)]),
        ),
      paperTuples: async (paperId) => every.filter((t) => t.paperId === paperId).map((t) => t.id),
      paragraphTuples: async (ids) => every.filter((t) => t.paragraphId && ids.includes(t.paragraphId)).map((t) => t.id),
    };
    const cases: { question: string; titlePaper?: string; entry?: { id: string; score: number }[] }[] = [
      { question: 'Which paper reports a Tc of 21.5 K for single crystals of QKCO?' },
      {
        question: 'Compare the superconducting transition temperature of LSCF and TiO2 grown from flux 3',
        entry: [
          { id: 'paper-t017:p1', score: 0.9 },
          { id: 'paper-named:p1', score: 0.4 },
        ],
      },
      {
        question: 'What transition temperature does CeO2 reach?',
        titlePaper: 'paper-t101',
        entry: [
          { id: 'paper-t101:p1', score: 0.7 },
          { id: 'paper-t002:p1', score: 0.6 },
        ],
      },
      {
        question: 'Which crucible chemistry did the growers choose?',
        entry: [
          { id: 'paper-filler07:p1', score: 0.8 },
          { id: 'paper-t033:p1', score: 0.8 },
        ],
      },
    ];
    for (const c of cases) {
      const analysis = analyseQuestion(c.question);
      const run = async (source: GraphCandidateSource) => {
        const trace = createTrace();
        const r = await graphRetrieve(source, analysis, c.question, {
          embedLabels: (t) => embedder.embed(t),
          step: trace.step,
          titlePaper: c.titlePaper,
          entry: c.entry && Promise.resolve(c.entry),
        });
        return { hits: r.hits.map((h) => [h.tuple.id, h.score, h.onPath]), weights: [...r.keywordWeights], steps: trace.trace.map((s) => [s.step, s.detail]) };
      };
      const a = await run(own);
      expect(a.hits.length).toBeGreaterThan(0);
      expect(await run(byIds)).toEqual(a);
    }
  });
});

describe('topCandidates', () => {
  // What the hybrid step did before: every kept candidate sorted by score, then by id, and cut.
  const sortedCut = (ids: string[], scores: number[], kept: number[], limit: number) =>
    kept
      .map((i) => ({ id: ids[i], s: scores[i] }))
      .sort((a, b) => b.s - a.s || (a.id < b.id ? -1 : 1))
      .slice(0, limit);

  it('keeps the same candidates in the same order as sorting them all and cutting, ties at the cut included', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (const [n, distinct, limit] of [
      [5000, 7, 1200],
      [3000, 3000, 1200],
      [1500, 2, 1200],
      [50, 4, 10],
      [30, 5, 30],
      [0, 1, 5],
    ]) {
      const ids = Array.from({ length: n }, (_, i) => `t${Math.floor(random() * 1e9).toString(36)}-${i}`);
      // Few distinct scores: ties of hundreds at the cut, as when thousands of tuples share one entity's score.
      const scores = ids.map(() => Math.floor(random() * distinct) / distinct);
      const kept = ids.map((_, i) => i).filter(() => random() > 0.2);
      const expected = sortedCut(ids, scores, kept, limit);
      expect(
        topCandidates((i) => ids[i], scores, kept, limit),
        `${n} candidates, ${distinct} scores`,
      ).toEqual(expected);
      // Ties broken by a rank that orders the candidates as their ids do (the tuples' ordinals in the embedded graph).
      const byId = ids.map((_, i) => i).sort((a, b) => (ids[a] < ids[b] ? -1 : 1));
      const rank = new Int32Array(n);
      byId.forEach((i, r) => {
        rank[i] = r;
      });
      expect(
        topCandidates((i) => ids[i], scores, kept, limit, rank),
        `${n} candidates, ${distinct} scores, by rank`,
      ).toEqual(expected);
    }
  });
});
