import { roleRulesSource, roleTuples } from './role-tuples.ts';
import { createHash } from 'node:crypto';
import { sourceFilesHash } from '../common/source-hash.ts';
import { rowCells, tableRowTuples } from './table-tuples.ts';
import { rowSegments } from '../ingest/tables.ts';
import type { Database } from '../db/database.ts';
import {
  deleteOrphans,
  deletePaperTuples,
  graphCounts,
  insertTuples,
  labelByCommonestSpelling,
  paperStamps,
  papersForGraph,
  recordVersions,
  resetEntitySpellings,
  settleEntity,
  upsertEntities,
  type StoredEntity,
  type StoredTuple,
} from '../db/graph.ts';
import type { PerformanceEntry, SynthesisEntry } from '../structure/record-mapping.ts';
import { CAUSAL_RELATIONS, performanceTuples, sentenceTuples, synthesisTuples, tupleId, tupleRulesSource, type TupleDraft } from './tuples.ts';
import type { TupleExtractor } from './llm-tuples.ts';
import { propertyEntry } from '../structure/properties.ts';
import { clauseRulesSource, clauseTuples } from './clause-tuples.ts';
import { evidenceText, isEvidenceParagraph, nonContentRulesSource } from '../ingest/non-content.ts';
import { timeSlicer } from '../common/yield.ts';
import { startedNow } from '../common/ahead.ts';
import { refreshStatistics } from '../db/statistics.ts';
import { plausibleProseTuple, plausibleRulesSource, plausibleValue } from './plausible.ts';
import { checkFoundPaper, FOUND_ONLINE_SOURCE, FOUND_RULES } from './found-papers.ts';
import { replaceTupleChecks, type TupleCheckRow } from '../db/tuple-checks.ts';

/**
 * The modules whose rules make a paper's tuples, and those of the normalisers they call (under lib/): their text is
 * the graph extractor's version (see `sourceFilesHash`), so a change to any of them re-extracts every paper. Every
 * module a `*RulesSource` below names a function of is here (rules-source.test.ts).
 */
export const GRAPH_RULE_FILES = [
  'graph/tuples.ts',
  'graph/clause-tuples.ts',
  'graph/clause-chunker.ts',
  'graph/property-value-tuples.ts',
  'graph/plausible.ts',
  'graph/phrase-guards.ts',
  'ingest/non-content.ts',
  'structure/terms.ts',
  'structure/chemical-names.ts',
  'structure/materials.ts',
  'structure/formula.ts',
  'structure/properties.ts',
  'structure/value-context.ts',
  'structure/sentences.ts',
  'structure/quantities.ts',
] as const;

/** The table reader's modules: in the stamp of papers with table rows only (see TABLE_RULES). */
export const TABLE_RULE_FILES = ['graph/table-tuples.ts', 'ingest/tables.ts'] as const;

/**
 * The graph stage: turns every paper's structured record and paragraphs into tuples and entities in the
 * relational store. Incremental: a paper whose record is unchanged since its tuples were made (same stamp) is
 * skipped; a changed one has its tuples replaced; tuples of deleted papers and unused entities are removed.
 */
export const GRAPH_EXTRACTOR_ID = `graph-offline@7-${(
  sourceFilesHash(GRAPH_RULE_FILES) ??
    // Without the sources beside the process, the rules' own texts (which differ by transpiler, see sourceFilesHash).
    createHash('sha256')
      .update(tupleRulesSource() + roleRulesSource() + clauseRulesSource() + nonContentRulesSource() + plausibleRulesSource())
      .digest('hex')
).slice(0, 10)}`;

/**
 * The table reader's rules, in the stamp of papers with table rows only: a change to them re-extracts the papers
 * with tables, and leaves every other paper's tuples (and their ids) as they are.
 */
const TABLE_RULES = `tables-${(
  sourceFilesHash(TABLE_RULE_FILES) ??
    createHash('sha256')
      .update(tableRowTuples.toString() + rowCells.toString() + rowSegments.toString())
      .digest('hex')
).slice(0, 10)}:`;

export interface GraphBuildReport {
  papersSeen: number;
  papersExtracted: number;
  tuplesWritten: number;
  entitiesTouched: number;
  orphansRemoved: { tuples: number; entities: number };
  /** Papers whose paragraphs the extractor could not read (model errors), with the reason; retried next run. */
  failures: string[];
  seconds: number;
  /** Where the seconds went: reading papers, extracting tuples, writing entities and tuples (orphans included). */
  phases: { readSeconds: number; extractSeconds: number; writeSeconds: number };
  counts: Awaited<ReturnType<typeof graphCounts>>;
}

interface PaperRecordJson {
  synthesis?: SynthesisEntry[];
  performance?: PerformanceEntry[];
}

/**
 * The offline paragraph backend behind the same interface as the LLM one: the sentence patterns (doping, roles,
 * the strict causal ones), what materials serve as (role-tuples.ts) and the clause chunker's subject–predicate–object
 * tuples of every sentence.
 */
export const offlineTupleExtractor: TupleExtractor = {
  id: 'patterns+clauses',
  extract: async (text, paragraphId) => [...sentenceTuples(text, paragraphId), ...roleTuples(text, paragraphId), ...clauseTuples(text, paragraphId)],
};

/**
 * Tuples of one paper: from its record entries, then from its paragraphs by the paragraph backend; a table row's
 * paragraph is read by its grid (table-tuples.ts) whatever the backend, as a model would only guess what the grid says.
 */
export async function paperTuples(
  record: PaperRecordJson,
  paragraphs: { id: string; text: string; kind?: string }[],
  extractor: TupleExtractor = offlineTupleExtractor,
): Promise<TupleDraft[]> {
  const out = recordTuples(record);
  // Appended one by one: spreading an extractor's whole output into push() overflows the stack on large inputs.
  // Sliced: the server builds the graph of a first-start import while answering pages, and a long paper takes seconds.
  const slice = timeSlicer();
  for (const p of paragraphs) {
    if (p.kind === 'table') {
      for (const t of tableRowTuples(p.text, p.id)) out.push(t);
      continue;
    }
    // Every reader's prose tuples pass the same last check (see plausible.ts).
    for (const t of await extractor.extract(p.text, p.id)) if (plausibleProseTuple(t)) out.push(t);
    await slice();
  }
  return out;
}

function recordTuples(record: PaperRecordJson): TupleDraft[] {
  // Performance claims are read from prose too (lib/structure): their values pass the same check of values.
  return [...(record.synthesis ?? []).flatMap(synthesisTuples), ...(record.performance ?? []).flatMap(performanceTuples).filter(plausibleValue)];
}

/** Papers read, extracted and written at a time. */
const PAGE = 100;

/**
 * The whole stage in this process: prepared, every paper extracted, finished. The import job runs the middle part
 * as shards any worker may take (lib/graph/shards.ts) between the same two ends.
 */
export async function buildGraph(
  db: Database,
  opts: { onProgress?: (seen: number) => void; signal?: AbortSignal; extractor?: TupleExtractor } = {},
): Promise<GraphBuildReport> {
  const extractor = opts.extractor ?? offlineTupleExtractor;
  const t0 = performance.now();
  await prepareGraphBuild(db, extractor);
  const part = await extractGraph(db, { ...opts, extractor });
  const finished = await finishGraphBuild(db, part.papersExtracted > 0);
  part.phases.writeSeconds += finished.seconds;
  return { ...part, orphansRemoved: finished.orphansRemoved, seconds: (performance.now() - t0) / 1000, counts: finished.counts };
}

/** A paper's tuple stamp: the graph rules, the extractor, and its record's extractor and last change. */
const recordStamp = (extractor: TupleExtractor, p: { extractor: string; updatedAt: Date }) =>
  `${GRAPH_EXTRACTOR_ID}:${extractor.id}:${p.extractor}:${p.updatedAt.toISOString()}`;

/**
 * Before any paper is extracted: when no paper keeps its tuples (the rules, the extractor or every record changed),
 * every paper is re-extracted and the entities' labels are chosen afresh, so the graph equals one built from nothing.
 */
export async function prepareGraphBuild(db: Database, extractor: TupleExtractor): Promise<void> {
  const stamps = await paperStamps(db);
  const kept = (p: { paperId: string; extractor: string; updatedAt: Date }) => {
    const stored = stamps.get(p.paperId);
    return !!stored && stored.replace(FOUND_RULES, '').replace(TABLE_RULES, '') === recordStamp(extractor, p);
  };
  if (!(await recordVersions(db)).some(kept)) await resetEntitySpellings(db);
}

/** After every paper: fresh statistics when tuples changed, orphans out, and what the graph now holds. */
export async function finishGraphBuild(db: Database, changed: boolean) {
  const t0 = performance.now();
  if (changed) await refreshStatistics(db, ['GraphEntity', 'GraphTuple']);
  const orphansRemoved = await deleteOrphans(db);
  return { orphansRemoved, counts: await graphCounts(db), seconds: (performance.now() - t0) / 1000 };
}

export type GraphPartReport = Omit<GraphBuildReport, 'orphansRemoved' | 'counts'>;

/**
 * Tuples of every paper (of `papers`, when given: a shard) whose record or rules changed since its tuples were made,
 * written page by page, then the entities it met labelled by their commonest spelling. Shards may run at once in
 * several processes: each labels its entities after its own writes, so the last label of an entity counts them all.
 */
export async function extractGraph(
  db: Database,
  opts: { onProgress?: (seen: number) => void; signal?: AbortSignal; extractor: TupleExtractor; papers?: string[] },
): Promise<GraphPartReport> {
  const extractor = opts.extractor;
  const failures: string[] = [];
  const t0 = performance.now();
  const stamps = await paperStamps(db, opts.papers);
  const stampOf = (p: { extractor: string; updatedAt: Date }) => recordStamp(extractor, p);
  let after: string | null = null;
  let seen = 0;
  let extracted = 0;
  let written = 0;
  // Entities whose spellings this build added to: only their labels can change.
  const touched = new Set<string>();
  const phases = { readSeconds: 0, extractSeconds: 0, writeSeconds: 0 };
  // Each phase is charged the time since the previous one ended.
  let lap = performance.now();
  const spent = (phase: keyof typeof phases) => {
    const now = performance.now();
    phases[phase] += (now - lap) / 1000;
    lap = now;
  };
  // One page read ahead and one written behind: the database's thread reads the next page and writes the previous
  // one while this thread extracts (at ×10 the extraction is most of the stage, the reads and writes the rest).
  let nextPage = startedNow(() => papersForGraph(db, after, PAGE, opts.papers));
  let writing = startedNow(async () => {});
  for (;;) {
    if (opts.signal?.aborted) break;
    const page = await nextPage();
    spent('readSeconds');
    if (page.length === 0) break;
    after = page[page.length - 1].paperId;
    const from = after;
    nextPage = startedNow(() => papersForGraph(db, from, PAGE, opts.papers));
    const entities = new Map<string, StoredEntity>();
    const tuples: StoredTuple[] = [];
    const redo: string[] = [];
    // Papers found online ("look for papers") and what their validation found (found-papers.ts).
    const checked: string[] = [];
    const checks: TupleCheckRow[] = [];
    for (const p of page) {
      seen++;
      const found = p.paper.source === FOUND_ONLINE_SOURCE;
      const stamp = `${found ? FOUND_RULES : ''}${p.paper.paragraphs.some((x) => x.kind === 'table') ? TABLE_RULES : ''}${stampOf(p)}`;
      if (stamps.get(p.paperId) === stamp) continue;
      let drafts: TupleDraft[];
      try {
        const paragraphs = p.paper.paragraphs.filter(isEvidenceParagraph).map((x) => ({ id: x.id, text: evidenceText(x.text), kind: x.kind }));
        drafts = await paperTuples(p.record as PaperRecordJson, paragraphs, extractor);
      } catch (error) {
        // The paper keeps its previous tuples and is retried by the next run.
        failures.push(`${p.paperId}: ${(error as Error).message}`);
        continue;
      }
      redo.push(p.paperId);
      extracted++;
      if (found) {
        const found = await checkFoundPaper(db, p.paperId, drafts, (t) => tupleId(stamp, t));
        drafts = found.accepted;
        checked.push(p.paperId);
        checks.push(...found.checks);
      }
      for (const t of drafts) {
        for (const e of [t.subject, t.object]) {
          // Properties are labelled by their lexicon name ("size"), not by the first spelling met ("mm diameter").
          const label = e.kind === 'property' ? (propertyEntry(e.key.slice(2))?.label ?? e.surface) : e.surface;
          const cur = entities.get(e.key) ?? { key: e.key, label, kind: e.kind, formula: e.formula, surfaces: {} };
          Object.assign(cur, settleEntity(cur, e));
          cur.surfaces[e.surface] = (cur.surfaces[e.surface] ?? 0) + 1;
          entities.set(e.key, cur);
        }
        tuples.push({
          id: tupleId(stamp, t),
          subjectKey: t.subject.key,
          relation: t.relation,
          objectKey: t.object.key,
          referenceRelation: t.referenceRelation,
          referenceNode: t.referenceNode,
          value: t.value,
          valueMax: t.valueMax,
          unit: t.unit,
          causal: CAUSAL_RELATIONS.has(t.relation),
          paperId: p.paperId,
          paragraphId: t.paragraphId,
          recordId: t.recordId,
          start: t.start,
          end: t.end,
          sentence: t.sentence,
          stamp,
        });
      }
    }
    spent('extractSeconds');
    // The previous page's writes end before this page's begin: pages are written in order.
    await writing();
    spent('writeSeconds');
    writing = startedNow(async () => {
      // Entities first (tuples reference them), then the paper's old tuples out and the new ones in.
      await upsertEntities(db, [...entities.values()]);
      await deletePaperTuples(db, redo);
      await insertTuples(db, tuples);
      await replaceTupleChecks(db, checked, checks);
    });
    written += tuples.length;
    for (const key of entities.keys()) touched.add(key);
    opts.onProgress?.(seen);
  }
  // Stopped or done: the last page's writes end (and a failed one throws) before the stage does.
  await writing();
  await nextPage().catch(() => []);
  await labelByCommonestSpelling(db, [...touched]);
  spent('writeSeconds');
  return {
    papersSeen: seen,
    papersExtracted: extracted,
    tuplesWritten: written,
    entitiesTouched: touched.size,
    failures,
    seconds: (performance.now() - t0) / 1000,
    phases,
  };
}
