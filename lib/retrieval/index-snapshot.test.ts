import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalHashEmbedder, localTextEmbedder } from '../embedding/local-hash.ts';
import { retrieve } from '../pipelines/run.ts';
import { fixtureCorpus, fixtureRecords, indexOf, pagesOf, plainParagraphs } from '../../scripts/test-support/retrieval-fixtures.ts';
import { structuredTerms } from '../structure/terms.ts';
import { lazyRecordIndex } from './record-index.ts';
import { tempDir } from '../../scripts/test-support/fixtures.ts';
import { correctSpelling } from './spelling.ts';
import { indexSnapshot, loadSnapshot, restoreIndex, saveSnapshot, recordsKey, snapshotKey, withKeptParts, withKeptRecords } from './index-snapshot.ts';

const questions = [
  'Which paper reports a peak power density of 450 mW cm-2 at 600 °C for La0.6Sr0.4CoO3?',
  'How were NiCo2O4 nanowires grown on nickel foam?',
  'superconductvity under pressure in a layered nitride',
  'What is the Tafel slope of CoFeMoP in 1 M KOH?',
];

/** What a retrieval shows, without its timings. */
const shown = (r: Awaited<ReturnType<typeof retrieve>>) => ({
  papers: r.papers.map((p) => [p.paperId, p.score]),
  evidence: r.evidence.map((e) => [e.id, e.score, e.text]),
  value: r.value?.text ?? null,
  abstention: r.abstention,
  extras: r.extras,
});

describe('the index snapshot', () => {
  it('reads back an index that answers exactly as the one it was written from', async () => {
    const corpus = fixtureCorpus();
    const built = await indexOf(corpus);
    const key = snapshotKey(corpus.version, 'ngram');
    expect(key).toMatch(/^[0-9a-f]{24}$/);
    const dir = tempDir();
    const file = saveSnapshot(dir, indexSnapshot(built, key!));
    const stored = loadSnapshot(dir, key!);
    expect(stored).not.toBeNull();
    // The restart's embedder is made from the stored fit, not from the corpus.
    const embedder = localTextEmbedder(new LocalHashEmbedder(stored!.nameFit!));
    expect(embedder.id).toBe(built.embedderId);
    const restored = restoreIndex(stored!, corpus, { embedder, nameEmbedder: embedder, buildSeconds: 0 });
    expect(plainParagraphs(restored.paragraphs)).toEqual(plainParagraphs(built.paragraphs));
    expect(restored.vocabulary.size).toBe(built.vocabulary.size);
    expect(restored.abbreviations.size).toBe(built.abbreviations.size);
    expect(correctSpelling(restored.vocabulary, questions[2])).toEqual(correctSpelling(built.vocabulary, questions[2]));
    for (const q of questions)
      for (const pipeline of ['json-qr', 'bm25', 'vector', 'graph', 'records'] as const)
        expect(shown(await retrieve(restored, q, pipeline))).toEqual(shown(await retrieve(built, q, pipeline)));
    expect(fs.existsSync(file)).toBe(true);
  });

  it('keeps the graph index once built, and reads back one equal to it that answers the same', async () => {
    const corpus = fixtureCorpus();
    const built = await indexOf(corpus);
    const dir = tempDir();
    const key = snapshotKey(corpus.version, 'ngram')!;
    const first = withKeptParts(built, dir, key);
    const graph = await first.graph.get();
    expect(graph.tuples.size).toBeGreaterThan(5);
    expect(graph.causalOut.size).toBeGreaterThan(0);
    await expect.poll(() => fs.readdirSync(dir).filter((f) => f.startsWith('graph-'))).toEqual([`graph-${key}.v8`]);
    let loads = 0;
    const again = withKeptParts(
      {
        ...built,
        graph: {
          get: async () => {
            loads++;
            return graph;
          },
        },
      },
      dir,
      key,
    );
    const read = await again.graph.get();
    expect(loads).toBe(0);
    expect(read).not.toBe(graph);
    // Every map and entity as built, in the same order (vectors as views into one stored array).
    expect([...read.tuples.entries()]).toEqual([...graph.tuples.entries()]);
    expect([...read.byTerm.entries()]).toEqual([...graph.byTerm.entries()]);
    expect([...read.adjacency.entries()]).toEqual([...graph.adjacency.entries()]);
    expect([...read.causalOut.entries()]).toEqual([...graph.causalOut.entries()]);
    expect(read.entities.map((e) => [e.key, e.label, e.terms, [...e.vector], e.tupleIds])).toEqual(
      graph.entities.map((e) => [e.key, e.label, e.terms, [...e.vector], e.tupleIds]),
    );
    expect(read.entityColumns).toEqual(graph.entityColumns);
    for (const m of ['canonicalOf', 'byPaper', 'byParagraph'] as const) expect([...read[m].entries()]).toEqual([...graph[m].entries()]);
    for (const q of questions)
      for (const pipeline of ['graph', 'hybrid'] as const) expect(shown(await retrieve(again, q, pipeline))).toEqual(shown(await retrieve(first, q, pipeline)));
  });

  it('keeps the records index in its file once built: a restart opens it without reading a record, and one cut short is built again', async () => {
    const corpus = fixtureCorpus();
    const built = await indexOf(corpus);
    const dir = tempDir();
    const snapshot = snapshotKey(corpus.version, 'ngram')!;
    // The records index's own key: of the corpus and the code, not the embedders.
    const key = recordsKey(corpus.version)!;
    expect(key).not.toBe(snapshot);
    fs.writeFileSync(path.join(dir, 'records-0123older.bin'), 'an older corpus version');
    // What a stopped process's build left, and what a running one is writing (this process stands for it).
    const stopped = `records-${key}.bin.2147483646.k3x9q0.partial.0`;
    const writing = `records-${key}.bin.${process.pid}.a1b2c3.partial`;
    // A part of a set never completed: beside the whole file once built, no reader would choose it.
    const part = `records-${key}.part-1-of-2.bin`;
    for (const f of [stopped, writing, part]) fs.writeFileSync(path.join(dir, f), 'half a build');
    const first = await withKeptParts(built, dir, snapshot).records.get();
    expect(first.file).toBe(path.join(dir, `records-${key}.bin`));
    expect(
      fs
        .readdirSync(dir)
        .filter((f) => f.startsWith('records-'))
        .sort(),
    ).toEqual([`records-${key}.bin`, writing].sort());
    let pages = 0;
    const lazyRestart = lazyRecordIndex(
      built.records.size,
      async () => {
        pages++;
        return fixtureRecords;
      },
      built.paperByDoi,
    ).keptIn(first.file!);
    const again = await lazyRestart.get();
    expect(pages).toBe(0);
    for (const q of questions) expect(again.lexical.query(structuredTerms(q))).toEqual(first.lexical.query(structuredTerms(q)));
    for (const r of fixtureRecords) expect(again.records.get(r.id)).toEqual(first.records.get(r.id));
    // Cut short (a disk that lost its end): not opened, built again from the rows.
    const recordQuestion = structuredTerms('Which paper synthesizes BaCe0.8Y0.2O3 from BaCO3, CeO2 and Y2O3?');
    const expected = first.lexical.query(recordQuestion);
    expect(expected.length).toBeGreaterThan(0);
    fs.writeFileSync(first.file!, fs.readFileSync(first.file!).subarray(0, 200));
    const rebuilt = lazyRecordIndex(built.records.size, pagesOf(fixtureRecords, 2), built.paperByDoi).keptIn(first.file!);
    const third = await rebuilt.get();
    expect(third.records.size).toBe(fixtureRecords.length);
    expect(third.lexical.query(recordQuestion)).toEqual(expected);
  });

  it('gives an index that is not stored (the model still embedding) the records index its folder keeps', async () => {
    const corpus = fixtureCorpus();
    const built = await indexOf(corpus);
    const dir = tempDir();
    const kept = await withKeptParts(built, dir, snapshotKey(corpus.version, 'ngram')!).records.get();
    expect(kept.file).toBe(path.join(dir, `records-${recordsKey(corpus.version)}.bin`));
    // Another index of the same corpus, as a server holds while the model embeds: its records index is that file.
    const again = await indexOf(corpus);
    const records = await withKeptRecords(again, dir).records.get();
    expect(records.file).toBe(kept.file);
    const q = structuredTerms('Which paper synthesizes BaCe0.8Y0.2O3 from BaCO3, CeO2 and Y2O3?');
    expect(records.lexical.query(q)).toEqual(kept.lexical.query(q));
    expect(records.lexical.query(q).length).toBeGreaterThan(0);
  });

  it('is used only under its own key, and one that cannot be read is removed and built again', async () => {
    const corpus = fixtureCorpus();
    const built = await indexOf(corpus);
    const dir = tempDir();
    const key = snapshotKey(corpus.version, 'ngram')!;
    // Another corpus stamp or another embedder choice is another key.
    expect(snapshotKey('fixture-2', 'ngram')).not.toBe(key);
    expect(snapshotKey(corpus.version, 'model')).not.toBe(key);
    const older = saveSnapshot(dir, indexSnapshot(built, snapshotKey('older', 'ngram')!));
    const file = saveSnapshot(dir, indexSnapshot(built, key));
    expect(fs.existsSync(older)).toBe(false);
    expect(loadSnapshot(dir, snapshotKey('older', 'ngram')!)).toBeNull();
    // Cut short (a machine that stopped mid-write leaves no such file, but a disk can).
    fs.writeFileSync(file, fs.readFileSync(file).subarray(0, 1000));
    const lines: string[] = [];
    expect(loadSnapshot(dir, key, (l) => lines.push(l))).toBeNull();
    expect(lines[0]).toMatch(/could not be read .* built again/);
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('retrieval-'))).toEqual([]);
    expect(path.dirname(file)).toBe(dir);
  });
});
