import { AppError } from '../common/errors.ts';
import { type PathRoot, pathRoots, publicPath, publicText } from '../common/public-path.ts';
import { startStarterDownload } from '../corpus/starter.ts';
import { activeRuns, getRun, listRuns, type StageState } from '../db/ingest-runs.ts';

export type { RunCounters, StageState } from '../db/ingest-runs.ts';
import { receiveUploads, removeUploadBatch } from '../ingest/uploads.ts';
import { type SemanticSearchProgress, semanticSearchProgress } from '../serving/semantic-search.ts';
export { type ImportFormats, importFormats } from '../ingest/readers/registry.ts';
import { resumeInBackground, runsAsFollowed, startBackgroundIngest } from '../jobs/background.ts';
import { STAGE_WORDS } from '../jobs/import-job.ts';
import { appContext } from './app.ts';

/** Imports as the app runs them: uploads, the starter corpus, the list of runs, resuming an interrupted one. */

type StoredRun = Awaited<ReturnType<typeof listRuns>>[number] & { errors?: { file: string; reason: string }[] };

/**
 * A run as a client sees it: file names relative to the data or corpus folder (never absolute), messages likewise,
 * and without the options the job keeps for itself (the paths it reads).
 */
export function publicRun<R extends StoredRun>(run: R, roots: PathRoot[]): Omit<R, 'options' | 'stages'> & { stages: StageState[] } {
  const { options: _internal, stages: _stored, ...rest } = run;
  return {
    ...rest,
    inputs: run.inputs.map((p) => publicPath(p, roots)),
    currentFile: run.currentFile && publicPath(run.currentFile, roots),
    message: run.message && publicText(run.message, roots),
    stages: (Array.isArray(run.stages) ? (run.stages as unknown as StageState[]) : []).map((s) => ({
      ...s,
      ...(s.message ? { message: publicText(s.message, roots) } : {}),
    })),
    ...(run.errors ? { errors: run.errors.map((e) => ({ ...e, file: publicPath(e.file, roots), reason: publicText(e.reason, roots) })) } : {}),
  };
}

/** The latest import runs, as a client sees them. */
export async function importRuns(take = 20) {
  const { db, cfg } = await appContext();
  const roots = pathRoots(cfg);
  return (await runsAsFollowed(db, await listRuns(db.prisma, take))).map((r) => publicRun(r, roots));
}

/** One import run with its errors, as a client sees it; null when there is none. */
export async function importRun(id: string) {
  const { db, cfg } = await appContext();
  const run = await getRun(db.prisma, id);
  return run && publicRun((await runsAsFollowed(db, [run]))[0], pathRoots(cfg));
}

/**
 * Saves an upload's files as they stream in (cut at the upload limit whatever the headers say) and imports them as
 * a queued job; returns its run id.
 */
export async function importUpload(upload: { contentType: string | null; declaredBytes: number; body: ReadableStream<Uint8Array> | null }): Promise<string> {
  const { db, cfg } = await appContext();
  if (upload.declaredBytes > cfg.maxUploadBytes + 1024 * 1024)
    throw new AppError('payload-too-large', `the upload is larger than the ${Math.round(cfg.maxUploadBytes / 1048576)} MiB limit (ASSAY_MAX_UPLOAD_MB)`);
  const saved = await receiveUploads(upload, cfg.dataDir, cfg.maxUploadBytes);
  try {
    return await startBackgroundIngest(db, cfg, saved.paths, 'upload', {
      displayNames: saved.names,
      shownInputs: [...saved.names.values()],
      maxItemBytes: cfg.maxLineBytes,
    });
  } catch (error) {
    // No run names the batch: it would lie in the uploads folder with nothing to import or show it.
    await removeUploadBatch(saved.paths);
    throw error;
  }
}

/** Completes an interrupted import run from the stage it stopped in; a clear error when it cannot. */
export async function resumeImport(id: string): Promise<void> {
  const { db, cfg } = await appContext();
  const run = await getRun(db.prisma, id, 0);
  if (!run) throw new AppError('not-found', 'no such import run');
  if (run.status !== 'interrupted') throw new AppError('conflict', `the run is ${run.status}; only an interrupted run can be resumed`);
  if (!(await resumeInBackground(db, cfg, id))) throw new AppError('conflict', 'the run was resumed already');
}

/** Queues the open-access starter corpus's download and import; returns its run id. */
export async function downloadStarterCorpus(): Promise<string> {
  const { db, cfg } = await appContext();
  return startStarterDownload(db, cfg);
}

/**
 * What anybody may know of the imports under way, signed in or not: that the library is being filled, which stage
 * each import is in and how much it has read. Nothing that names a file or who started it: the first-start import
 * and other people's uploads are reported alike.
 */
export interface PublicImportStatus {
  imports: {
    firstStart: boolean;
    status: 'queued' | 'running';
    stage: string | null;
    stageNumber: number;
    stageCount: number;
    filesDone: number;
    filesTotal: number;
    papers: number;
    records: number;
    startedAt: string;
  }[];
  /** While the embedding model embeds the corpus in the background: how far (null once semantic search is complete). */
  semanticSearch: SemanticSearchProgress | null;
}

export async function publicImportStatus(): Promise<PublicImportStatus> {
  const { db } = await appContext();
  const runs = await activeRuns(db.prisma);
  return {
    semanticSearch: semanticSearchProgress(),
    imports: runs.map((r) => {
      const stages = (Array.isArray(r.stages) ? r.stages : []) as unknown as StageState[];
      const live = stages.filter((s) => s.status !== 'skipped');
      const at = live.findIndex((s) => s.status === 'running' || s.status === 'pending');
      return {
        firstStart: r.trigger === 'startup',
        status: r.status === 'queued' ? 'queued' : 'running',
        stage: at >= 0 ? STAGE_WORDS[live[at].name] : null,
        stageNumber: at >= 0 ? at + 1 : live.length,
        stageCount: live.length,
        filesDone: r.filesDone,
        filesTotal: r.filesTotal,
        papers: r.papersAdded + r.papersUpdated + r.papersUnchanged,
        records: r.recordsAdded + r.recordsUnchanged,
        startedAt: r.startedAt.toISOString(),
      };
    }),
  };
}
