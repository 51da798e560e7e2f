import type { Database } from '../db/database.ts';
import { papersForRecord, paragraphPage, papersWithoutRecord, savePaperRecords, saveParagraphStructures, type ParagraphToStructure } from '../db/structure.ts';
import { sha256 } from '../common/hash.ts';
import { offlineExtractor, type ParagraphStructure, type StructureExtractor } from './paragraph.ts';
import { recordEntries, type PerformanceEntry, type SynthesisEntry } from './record-mapping.ts';
import { timeSlicer } from '../common/yield.ts';
import { startedNow } from '../common/ahead.ts';
import { refreshStatistics } from '../db/statistics.ts';

/** Papers whose records are read, built and written at a time. */
const RECORD_PAGE = 200;

export interface StructuringProgress {
  paragraphsSeen: number;
  paragraphsStructured: number;
  papersRecorded: number;
  elapsedSeconds: number;
}

export interface StructuringReport extends StructuringProgress {
  extractor: string;
  /** Paragraphs the extractor failed on (recorded, retried next run). */
  failures: number;
  failureSamples: string[];
}

/** The annotation stamp: extractor and text together decide whether a paragraph must be redone. */
const stampOfId = (id: string, text: string) => `${id}:${sha256(text).slice(0, 16)}`;
const stampOf = (extractor: StructureExtractor, text: string) => stampOfId(extractor.id, text);

/**
 * Structures every paragraph whose text or extractor changed since it was last structured (incremental), then
 * rebuilds the per-paper record of every paper touched. Safe to interrupt: a re-run picks up where it stopped.
 */
export async function runStructuring(
  db: Database,
  opts: {
    extractor?: StructureExtractor;
    onProgress?: (p: StructuringProgress) => void;
    signal?: AbortSignal;
    batchSize?: number;
    /** Papers whose record must be rebuilt even if no paragraph changed (they gained structured records). */
    alsoRebuild?: string[];
    /** Paragraphs structured at once (a model backend benefits; the offline rules do not). */
    concurrency?: number;
    /** Only these papers' paragraphs and records (a shard of the stage: lib/structurers/shards.ts). */
    papers?: string[];
    /** Refresh the planner's statistics afterwards (default true; a stage run as shards does it once, at its end). */
    statistics?: boolean;
  } = {},
): Promise<StructuringReport> {
  const extractor: StructureExtractor = opts.extractor ?? offlineExtractor;
  const started = performance.now();
  const batchSize = opts.batchSize ?? 1000;
  const progress: StructuringProgress = { paragraphsSeen: 0, paragraphsStructured: 0, papersRecorded: 0, elapsedSeconds: 0 };
  const touched = new Set<string>(opts.alsoRebuild ?? []);
  const statistics = opts.statistics !== false;
  const failures: string[] = [];
  const failed = new Set<string>();
  const concurrency = opts.concurrency ?? 1;
  const fresh = new Map<string, ParagraphStructure>();
  const tick = () => opts.onProgress?.({ ...progress, elapsedSeconds: (performance.now() - started) / 1000 });

  // One page read ahead and one written behind, as the graph stage does: the database's thread reads and writes
  // while this one structures (a page's paragraphs are not read again once written, so the order is kept).
  let nextPage = startedNow(() => paragraphPage(db, null, batchSize, opts.papers));
  let writing = startedNow(async () => {});
  for (;;) {
    if (opts.signal?.aborted) break;
    const page: ParagraphToStructure[] = await nextPage();
    if (page.length === 0) break;
    const after = page[page.length - 1].id;
    nextPage = startedNow(() => paragraphPage(db, after, batchSize, opts.papers));
    progress.paragraphsSeen += page.length;
    const pending = page.map((paragraph) => ({ paragraph, stamp: stampOf(extractor, paragraph.text) })).filter((x) => x.paragraph.structuredBy !== x.stamp);
    // An extractor reading the encoder's vectors embeds the page's paragraphs it reviews in one batch.
    if (pending.length) await extractor.prepare?.(pending.map((x) => x.paragraph.text));
    // The offline extractor is synchronous CPU: sliced, so the server answers pages while it structures an import.
    const slice = timeSlicer();
    const results = await mapWithConcurrency(pending, concurrency, async (x) => {
      await slice();
      const structure = await safeStructure(extractor, x.paragraph.text, failures);
      if (!structure) failed.add(x.paragraph.id);
      return { ...x, structure };
    });
    // A paragraph the extractor failed on keeps its old stamp, so the next run tries it again. One read by a fallback
    // (structure.structurer) is stamped with the fallback's id; read the same way again, it is not written again.
    const todo = results
      .filter((x): x is typeof x & { structure: ParagraphStructure } => x.structure !== null)
      .map((x) => (x.structure.structurer ? { ...x, stamp: stampOfId(x.structure.structurer, x.paragraph.text) } : x))
      .filter((x) => x.stamp !== x.paragraph.structuredBy);
    await writing();
    writing = startedNow(() => saveParagraphStructures(db, todo));
    for (const t of todo) {
      touched.add(t.paragraph.paperId);
      fresh.set(t.paragraph.id, t.structure);
    }
    progress.paragraphsStructured += todo.length;
    tick();
  }
  // The last page is written (a failed write throws) before the records are built from the stored paragraphs.
  await writing();
  await nextPage().catch(() => []);
  // The records below read paragraphs by paper, and later stages mentions by paragraph: plans from fresh statistics.
  if (statistics && progress.paragraphsStructured) await refreshStatistics(db, ['Paragraph', 'Mention']);

  if (!opts.signal?.aborted) {
    for (const id of await papersWithoutRecord(db, extractor.id, opts.papers)) touched.add(id);
    const ids = [...touched];
    const papersOf = (i: number) => startedNow(() => papersForRecord(db, ids.slice(i, i + RECORD_PAGE)));
    let nextPapers = papersOf(0);
    writing = startedNow(async () => {});
    for (let i = 0; i < ids.length; i += RECORD_PAGE) {
      if (opts.signal?.aborted) break;
      const papers = await nextPapers();
      nextPapers = papersOf(i + RECORD_PAGE);
      const rows: { paperId: string; extractor: string; record: unknown }[] = [];
      for (const paper of papers) rows.push({ paperId: paper.id, extractor: extractor.id, record: await buildPaperRecord(paper, extractor, fresh, failed) });
      await writing();
      writing = startedNow(() => savePaperRecords(db, rows));
      progress.papersRecorded += rows.length;
      tick();
    }
    await writing();
    await nextPapers().catch(() => []);
    if (statistics && progress.papersRecorded) await refreshStatistics(db, ['PaperRecord']);
  }
  progress.elapsedSeconds = (performance.now() - started) / 1000;
  return { ...progress, extractor: extractor.id, failures: failures.length, failureSamples: [...new Set(failures)].slice(0, 10) };
}

/** One failing paragraph must not stop the stage: the failure is recorded and the paragraph left for later. */
async function safeStructure(extractor: StructureExtractor, text: string, failures: string[]): Promise<ParagraphStructure | null> {
  try {
    return await extractor.structureParagraph(text);
  } catch (error) {
    failures.push((error as Error).message);
    return null;
  }
}

async function mapWithConcurrency<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

type PaperForRecord = Awaited<ReturnType<typeof papersForRecord>>[number];

/** The hierarchical record of one paper: paragraphs (role, method) → synthesis and performance entries. */
export async function buildPaperRecord(
  paper: PaperForRecord,
  extractor: StructureExtractor,
  cache: Map<string, ParagraphStructure> = new Map(),
  failed: Set<string> = new Set(),
) {
  const synthesis: SynthesisEntry[] = [];
  const performance: PerformanceEntry[] = [];
  for (const p of paper.paragraphs) {
    if (failed.has(p.id)) continue; // left out until a later run structures it
    const s = cache.get(p.id) ?? (await safeStructure(extractor, p.text, []));
    if (!s) continue;
    if (s.role === 'synthesis') {
      const pick = (role: string) =>
        s.entities.filter((e) => e.role === role).map((e) => ({ text: e.text, key: e.key, formula: e.formula, start: e.start, end: e.end }));
      synthesis.push({
        source: 'paragraph',
        paragraphId: p.id,
        method: s.method,
        targets: pick('target'),
        precursors: pick('precursor'),
        solvents: pick('solvent'),
        additives: pick('additive'),
        substrates: pick('substrate'),
        conditions: { ...(s.conditions ?? { temperature: [], time: [], atmosphere: [] }) },
      });
    }
    for (const c of s.performance) performance.push({ source: 'paragraph', paragraphId: p.id, ...c });
  }
  for (const r of paper.records) {
    const mapped = recordEntries(r.id, r.kind, r.data as Record<string, unknown>);
    synthesis.push(...mapped.synthesis);
    performance.push(...mapped.performance);
  }
  return {
    schema: 'assay.paper-record/1',
    extractor: extractor.id,
    paper: { id: paper.id, doi: paper.doi, title: paper.title },
    paragraphs: paper.paragraphs.map((p) => {
      const s = cache.get(p.id);
      return { id: p.id, ordinal: p.ordinal, section: p.section, role: s?.role ?? p.role, method: s?.method ?? p.method };
    }),
    synthesis,
    performance,
  };
}
