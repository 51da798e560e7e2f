import path from 'node:path';
import type { Database } from '../db/database.ts';
import { canQueue, queueFull, startTracked } from '../common/background.ts';
import type { RetrievalService } from '../pipelines/service.ts';
import { createRunRow, runEvaluationJob, type EvaluationJobInput, type EvaluationJobProgress } from './evaluation-job.ts';
import { loadQuestions } from './questions.ts';

/**
 * Evaluation runs started from the web app: the question file is validated and the run row created before the
 * request returns (a bad file is a 400, not a failed run); the work then proceeds in the server process under
 * the same shutdown tracking as imports, and reports its progress here for the page to poll.
 */
const registry = globalThis as unknown as { __assayEvalProgress?: Map<string, EvaluationJobProgress> };
const progress = () => (registry.__assayEvalProgress ??= new Map());

export function evaluationProgress(runId: string): EvaluationJobProgress | null {
  return progress().get(runId) ?? null;
}

export async function startBackgroundEvaluation(db: Database, service: RetrievalService, input: EvaluationJobInput): Promise<string> {
  if (!canQueue()) throw queueFull();
  const questions = await loadQuestions(input.questionsFile, { limit: input.limit }); // throws QuestionFileError naming file:line
  const run = await createRunRow(db, service, input, questions.length);
  progress().set(run.id, { stage: 'queued', done: 0, total: questions.length * input.pipelines.length });
  startTracked(
    run.id,
    (signal) =>
      runEvaluationJob(db, service, { ...input, runId: run.id }, { signal, onProgress: (p) => progress().set(run.id, p) }).finally(() =>
        progress().delete(run.id),
      ),
    { kind: 'evaluation', label: `${path.basename(input.questionsFile)} × ${input.pipelines.join(', ')}` },
  );
  return run.id;
}
