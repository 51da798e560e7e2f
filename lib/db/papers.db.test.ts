import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './database.ts';
import { bibliographyOf, getPaper, hasPapers, libraryFacets, searchPapers } from './papers.ts';
import { hasRecords, recordsForPaper } from './records.ts';
import { runIngest } from '../jobs/import-job.ts';
import { readConfig } from '../config.ts';
import { corpusPapers, recipeRows, tempDir, writeCorpusJsonl, writeRecordsJsonl } from '../../scripts/test-support/fixtures.ts';
import { openTestDatabase, testDatabaseKind } from '../../scripts/test-support/database.ts';
import { MATCH_END, MATCH_START } from '../search-markers.ts';
import { Deadline } from '../common/deadline.ts';
import { seededRandom } from '../common/random.ts';
import { hostileQuestions } from '../../scripts/test-support/hostile-questions.ts';
import { withinTime } from './within-time.ts';

const testConfig = readConfig({});

let db: Database;
beforeAll(async () => {
  db = await openTestDatabase();
  const dir = tempDir();
  const extra = Array.from({ length: 25 }, (_, i) => ({
    ...structuredClone(corpusPapers[1]),
    id: `extra-${i}`,
    doi: `10.9999/extra.${String(i).padStart(2, '0')}`,
    title: `Zeolite membrane study ${i}`,
    year: 2000 + i,
    paragraphs: [{ id: null, section: null, text: `Zeolite sample ${i} adsorbed water.` }],
  }));
  await runIngest(db, testConfig, [writeCorpusJsonl(dir, 'p.jsonl', [...corpusPapers, ...extra]), writeRecordsJsonl(dir, 'sol-gel.jsonl', recipeRows)], {
    trigger: 'cli',
  });
});
afterAll(async () => {
  await db?.close();
});

const titles = async (s: Parameters<typeof searchPapers>[1]) => (await searchPapers(db.prisma, s)).hits.map((h) => h.title);

describe(`library search (${testDatabaseKind()})`, () => {
  it('says whether the library holds papers and records (what a server start asks), on an empty database too', async () => {
    expect([await hasPapers(db.prisma), await hasRecords(db.prisma)]).toEqual([true, true]);
    const empty = await openTestDatabase();
    try {
      expect([await hasPapers(empty.prisma), await hasRecords(empty.prisma)]).toEqual([false, false]);
    } finally {
      await empty.close();
    }
  });

  it('finds papers by words in the full text, with a highlighted snippet', async () => {
    const res = await searchPapers(db.prisma, { q: 'screen-printed ceria' });
    expect(res.total).toBe(1);
    expect(res.hits[0].title).toBe(corpusPapers[0].title);
    expect(res.hits[0].snippet).toContain(`${MATCH_START}ceria${MATCH_END}`);
    expect(res.hits[0]).toMatchObject({ paragraphCount: 3, recordCount: 0 });
  });
  it('finds by title words, DOI and author, each restricted to its field', async () => {
    expect(await titles({ q: 'spinel', field: 'title' })).toEqual([corpusPapers[1].title]);
    expect(await titles({ q: '10.9999/demo.sofc.2021.001', field: 'doi' })).toEqual([corpusPapers[0].title]);
    expect(await titles({ q: 'curie', field: 'author' })).toEqual([corpusPapers[0].title]);
    expect(await titles({ q: 'curie', field: 'title' })).toEqual([]);
    expect(await titles({ q: 'gelled', field: 'fulltext' })).toEqual([corpusPapers[1].title]);
  });
  it('gives the bibliographic fields of papers by id (a "who wrote" answer), and nothing for an id it does not hold', async () => {
    const [hit] = (await searchPapers(db.prisma, { q: '10.9999/demo.sofc.2021.001', field: 'doi' })).hits;
    const held = await bibliographyOf(db.prisma, [hit.id, 'no-such-paper']);
    expect([...held.keys()]).toEqual([hit.id]);
    expect(held.get(hit.id)).toMatchObject({ authors: corpusPapers[0].authors, journal: corpusPapers[0].journal, year: corpusPapers[0].year, doi: hit.doi });
    expect((await bibliographyOf(db.prisma, [])).size).toBe(0);
  });
  it('filters by domain, source and year range and pages through results', async () => {
    expect(await titles({ domain: 'sofc' })).toEqual([corpusPapers[0].title]);
    const range = await searchPapers(db.prisma, { q: 'zeolite', yearFrom: 2010, yearTo: 2014 });
    expect(range.total).toBe(5);
    const page1 = await searchPapers(db.prisma, { source: 'Demo', pageSize: 10 });
    const page3 = await searchPapers(db.prisma, { source: 'Demo', pageSize: 10, page: 3 });
    expect(page1.total).toBe(28);
    expect(page1.hits).toHaveLength(10);
    expect(page3.hits).toHaveLength(8);
    expect(new Set([...page1.hits, ...page3.hits].map((h) => h.id)).size).toBe(18);
  });
  it('treats hostile search text as text', async () => {
    for (const q of ['\'; DROP TABLE "Paper"; --', '%_\\', '!!!', 'a'.repeat(5000), '"unbalanced']) {
      await expect(searchPapers(db.prisma, { q })).resolves.toBeDefined();
    }
    expect(await db.prisma.paper.count()).toBe(28);
  });
  it('reads any text PostgreSQL would refuse as a search of its words (runs of dashes overflowed its tsquery stack)', async () => {
    const rand = seededRandom(7);
    const pieces = ['-', '- ', '--', '"', ' or ', 'or', '!', '&', '|', '(', ')', ':', '*', '<->', '\\', ' ', 'ceria', '1', '1-', 'a', '−'];
    const texts = [
      ...hostileQuestions(500, 0).map((h) => h.text),
      ...Array.from({ length: 40 }, () =>
        Array.from({ length: 60 + Math.floor(rand() * 200) }, () => pieces[Math.floor(rand() * pieces.length)])
          .join('')
          .slice(0, 500),
      ),
    ];
    for (const q of texts) await expect(searchPapers(db.prisma, { q }), q.slice(0, 60)).resolves.toMatchObject({ page: 1 });
    // What the syntax offers still works: a hyphenated word, a phrase, a word left out.
    expect(await titles({ q: 'screen-printed', field: 'fulltext' })).toEqual([corpusPapers[0].title]);
    expect(await titles({ q: '"gadolinium-doped ceria"', field: 'fulltext' })).toEqual([corpusPapers[0].title]);
    expect(await titles({ q: 'ceria -screen', field: 'fulltext' })).toEqual([]);
  });
  it('ends a search past its time with the over-budget error', async () => {
    await expect(withinTime(db, Deadline.at(Date.now() - 1, 1000, 'search'), (c) => searchPapers(c, { q: 'ceria' }))).rejects.toThrow(/search took too long/);
    await expect(withinTime(db, Deadline.in(60_000, 'search'), (c) => searchPapers(c, { q: 'ceria' }))).resolves.toMatchObject({ total: 1 });
  });
  it('gives facets, a paper with ordered paragraphs and its linked records', async () => {
    const facets = await libraryFacets(db.prisma);
    expect(facets.domains.map((d) => d.value)).toEqual(['battery', 'polymer', 'sofc']);
    expect(facets).toMatchObject({ yearMin: 2000, yearMax: 2024 });
    const hit = (await searchPapers(db.prisma, { q: 'spinel', field: 'title' })).hits[0];
    const paper = await getPaper(db.prisma, hit.id);
    expect(paper?.paragraphs.map((p) => p.ordinal)).toEqual([0, 1]);
    const recs = await recordsForPaper(db.prisma, hit.id);
    expect(recs.total).toBe(2);
  });
});
