import { randomUUID } from 'node:crypto';
import type { Database } from './database.ts';
import type { Prisma } from './generated/client.ts';
import type { EvaluatedQuestion, EvaluationSummary } from '../evaluation/retrieval-eval.ts';

/** Owns all queries on EvaluationRun and EvaluationResult. */

export async function createEvaluationRun(
  db: Database,
  data: { questionSet: string; questions: number; pipelines: string[]; settings: Record<string, unknown> },
) {
  return db.prisma.evaluationRun.create({ data: { ...data, settings: data.settings as Prisma.InputJsonValue } });
}

export async function updateEvaluationSettings(db: Database, id: string, settings: Record<string, unknown>) {
  await db.prisma.evaluationRun.update({ where: { id }, data: { settings: settings as Prisma.InputJsonValue } });
}

export async function saveEvaluationResults(db: Database, runId: string, batch: EvaluatedQuestion[]) {
  if (batch.length === 0) return;
  const cols = [
    'id',
    'runId',
    'pipeline',
    'questionId',
    'type',
    'source',
    'question',
    'doiAt1',
    'doiAt5',
    'rank',
    'paragraphAt5',
    'valueAt3',
    'abstained',
    'latencyMs',
    'detail',
  ];
  const params: unknown[] = [];
  const rows = batch.map((b, i) => {
    params.push(
      randomUUID(),
      runId,
      b.pipeline,
      b.question.id,
      b.question.type,
      b.question.source ?? null,
      b.question.question,
      b.score.doiAt1,
      b.score.doiAt5,
      b.score.rank,
      b.score.paragraphAt5,
      b.score.valueAt3,
      b.score.abstained,
      b.score.latencyMs,
      JSON.stringify(b.detail),
    );
    const base = i * cols.length;
    return `(${cols.map((c, j) => `$${base + j + 1}${c === 'detail' ? '::jsonb' : ''}`).join(', ')})`;
  });
  await db.bulkExecute(`INSERT INTO "EvaluationResult" (${cols.map((c) => `"${c}"`).join(', ')}) VALUES ${rows.join(', ')}`, params);
}

export async function finishEvaluationRun(db: Database, id: string, outcome: { summary: EvaluationSummary } | { error: string }) {
  await db.prisma.evaluationRun.update({
    where: { id },
    data:
      'summary' in outcome
        ? { status: 'succeeded', summary: outcome.summary as unknown as Prisma.InputJsonValue, finishedAt: new Date() }
        : { status: 'failed', message: outcome.error.slice(0, 4000), finishedAt: new Date() },
  });
}

/** Runs left "running" by a process that died are marked failed at start (nothing else will finish them). */
export async function markAbandonedEvaluationRuns(db: Database, liveJobIds: string[] = []) {
  const r = await db.prisma.evaluationRun.updateMany({
    where: { status: 'running', id: { notIn: liveJobIds } },
    data: { status: 'failed', message: 'the process running this evaluation stopped before it finished', finishedAt: new Date() },
  });
  return r.count;
}

/** A run whose job was cut short (its process stopped): failed, with why; its results so far are kept. */
export async function markEvaluationRunStopped(db: Database, id: string) {
  await db.prisma.evaluationRun.updateMany({
    where: { id, status: 'running' },
    data: { status: 'failed', message: 'the process running this evaluation stopped before it finished', finishedAt: new Date() },
  });
}

export async function listEvaluationRuns(db: Database, take = 50) {
  return db.prisma.evaluationRun.findMany({ orderBy: { startedAt: 'desc' }, take });
}

export async function getEvaluationRun(db: Database, id: string) {
  return db.prisma.evaluationRun.findUnique({ where: { id } });
}

export interface ResultFilter {
  pipeline?: string;
  type?: string;
  outcome?: 'hit' | 'miss';
  page?: number;
  pageSize?: number;
}

/** One page of results of a run; "hit" means doi@1 for doi questions, value@3 for value, abstained for unanswerable. */
export async function evaluationResults(db: Database, runId: string, f: ResultFilter = {}) {
  const hit: Prisma.EvaluationResultWhereInput = {
    OR: [
      { type: 'doi', doiAt1: true },
      { type: 'value', valueAt3: true },
      { type: 'unanswerable', abstained: true },
    ],
  };
  const where: Prisma.EvaluationResultWhereInput = {
    runId,
    ...(f.pipeline ? { pipeline: f.pipeline } : {}),
    ...(f.type ? { type: f.type } : {}),
    ...(f.outcome === 'hit' ? hit : f.outcome === 'miss' ? { NOT: hit } : {}),
  };
  const pageSize = f.pageSize ?? 50;
  const page = Math.max(1, f.page ?? 1);
  const [total, rows] = await Promise.all([
    db.prisma.evaluationResult.count({ where }),
    db.prisma.evaluationResult.findMany({
      where,
      orderBy: [{ pipeline: 'asc' }, { questionId: 'asc' }],
      skip: (page - 1) * pageSize,
      take: pageSize,
      omit: { detail: true },
    }),
  ]);
  return { total, page, pageSize, rows };
}

export async function getEvaluationResult(db: Database, id: string) {
  return db.prisma.evaluationResult.findUnique({ where: { id } });
}

/** Per pipeline and question of a run: its outcomes and the ids of its top evidence, for comparing two runs question by question. */
export async function evaluationOutcomes(
  db: Database,
  runId: string,
): Promise<
  { pipeline: string; questionId: string; doiAt1: boolean | null; valueAt3: boolean | null; abstained: boolean; evidence: string[]; answer: unknown }[]
> {
  return db.prisma.$queryRaw`
    SELECT pipeline, "questionId", "doiAt1", "valueAt3", abstained,
           COALESCE(ARRAY(SELECT e->>'id' FROM jsonb_array_elements(detail->'evidence') AS e), ARRAY[]::text[]) AS evidence,
           detail->'answer' AS answer
    FROM "EvaluationResult" WHERE "runId" = ${runId} ORDER BY pipeline, "questionId"`;
}
