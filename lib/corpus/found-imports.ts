import type { AssayConfig } from '../config.ts';
import { AppError } from '../common/errors.ts';
import type { TraceStep } from '../common/trace.ts';
import type { Database } from '../db/database.ts';
import { tupleCountsOfPapers } from '../db/graph.ts';
import { getRun } from '../db/ingest-runs.ts';
import { advancePaperSearch, getPaperSearch, settlePaperSearch, type StoredPaperSearch } from '../db/paper-searches.ts';
import { papersByIdentifiers } from '../db/papers.ts';
import { type TupleCheckRow, tupleChecksOf } from '../db/tuple-checks.ts';
import { FOUND_ONLINE_SOURCE } from '../graph/found-papers.ts';
import type { PaperCandidate } from './paper-search.ts';
import { startArticleDownload } from './starter.ts';

/**
 * The second half of "look for papers": an admin imports chosen candidates through the normal import job (Europe PMC's
 * JATS full text, downloaded and read like any import; the papers stored as found online, so their tuples are
 * validated before they join the graph — lib/graph/found-papers.ts); the search's page then reports the import and
 * what validation kept out or flagged, and each of these steps joins the search's trace.
 */

export async function importFoundPapers(
  db: Database,
  cfg: AssayConfig,
  searchId: string,
  pmcids: string[],
  by: string | null,
): Promise<{ runId: string; papers: string[] }> {
  const search = await getPaperSearch<PaperCandidate>(db, searchId);
  if (!search) throw new AppError('not-found', 'there is no such search');
  if (search.status === 'importing') throw new AppError('conflict', 'the papers of this search are being imported already');
  // Only what the search judged importable (a permitted licence, a full text, not in the library): never what a form says.
  const wanted = new Set(pmcids.map((id) => id.trim().toUpperCase()));
  const chosen = search.candidates.filter((c) => c.importable && c.pmcid && wanted.has(c.pmcid)).map((c) => c.pmcid!);
  if (chosen.length === 0) throw new AppError('bad-request', 'choose at least one paper that can be imported');
  const runId = await startArticleDownload(db, cfg, chosen, FOUND_ONLINE_SOURCE, `papers found for “${search.question.slice(0, 80)}”`);
  await advancePaperSearch(db, searchId, [{ step: 'import', ms: 0, detail: { run: runId, papers: chosen, by: by ?? 'unknown' } }], {
    status: 'importing',
    importRunId: runId,
    imported: chosen,
  });
  return { runId, papers: chosen };
}

export interface FoundPaperReport {
  pmcid: string;
  paperId: string | null;
  title: string | null;
  /** Tuples in the graph (conflicts among them). */
  joined: number;
  rejected: TupleCheckRow[];
  conflicts: TupleCheckRow[];
}

export interface PaperSearchReport {
  search: StoredPaperSearch<PaperCandidate>;
  run: { id: string; status: string; message: string | null; errors: { file: string; reason: string }[] } | null;
  papers: FoundPaperReport[];
}

/**
 * A search as its page shows it: the candidates, the import's run and, once it finished, each imported paper's
 * validation. The first look after the run ended adds its outcome to the trace (validation counts, or the failure).
 */
export async function paperSearchReport(db: Database, id: string): Promise<PaperSearchReport | null> {
  const search = await getPaperSearch<PaperCandidate>(db, id);
  if (!search) return null;
  const runRow = search.importRunId ? await getRun(db.prisma, search.importRunId, 20) : null;
  const run = runRow && {
    id: runRow.id,
    status: runRow.status,
    message: runRow.message,
    errors: runRow.errors.map((e) => ({ file: e.file, reason: e.reason })),
  };
  const held = await papersByIdentifiers(db.prisma, {
    dois: search.candidates.map((c) => c.doi).filter((x): x is string => !!x),
    sourceIds: [...new Set([...search.imported, ...search.candidates.map((c) => c.pmcid).filter((x): x is string => !!x)])],
  });
  // What the library holds now (an import from this search or any other): no longer offered for import.
  for (const c of search.candidates) {
    const paper = (c.doi && held.get(c.doi)) || (c.pmcid && held.get(c.pmcid)) || null;
    if (paper) Object.assign(c, { inLibrary: { id: paper.id, title: paper.title }, importable: false, blocked: 'the library holds it already' });
  }
  const paperIds = search.imported.map((p) => held.get(p)?.id).filter((x): x is string => !!x);
  const [checks, counts] = await Promise.all([tupleChecksOf(db, paperIds), tupleCountsOfPapers(db, paperIds)]);
  const papers = search.imported.map((pmcid): FoundPaperReport => {
    const paper = held.get(pmcid) ?? null;
    const mine = checks.filter((c) => c.paperId === paper?.id);
    return {
      pmcid,
      paperId: paper?.id ?? null,
      title: paper?.title ?? null,
      joined: paper ? (counts.get(paper.id) ?? 0) : 0,
      rejected: mine.filter((c) => c.verdict === 'rejected'),
      conflicts: mine.filter((c) => c.verdict === 'conflict'),
    };
  });
  if (search.status === 'importing' && run && ['succeeded', 'failed'].includes(run.status)) {
    // A run that read none of the chosen papers (each download failed) failed for this search, whatever its status.
    const ok = run.status === 'succeeded' && papers.some((p) => p.paperId);
    const why = run.message ?? (run.errors.map((e) => `${e.file}: ${e.reason}`).join('; ') || 'the import failed');
    const step: TraceStep = ok
      ? {
          step: 'validate',
          ms: 0,
          detail: {
            papers: papers.filter((p) => p.paperId).length,
            joined: papers.reduce((n, p) => n + p.joined, 0),
            rejected: papers.reduce((n, p) => n + p.rejected.length, 0),
            conflicts: papers.reduce((n, p) => n + p.conflicts.length, 0),
            ...(run.errors.length ? { notImported: run.errors.map((e) => `${e.file}: ${e.reason}`) } : {}),
          },
        }
      : { step: 'import-failed', ms: 0, detail: { run: run.id, message: why } };
    if (await settlePaperSearch(db, id, step, ok ? 'imported' : 'found')) return paperSearchReport(db, id);
  }
  return { search, run, papers };
}
