import { guarded } from '@/lib/auth/guard';
import { plainText } from '@/lib/common/params';
import { readJsonAs } from '@/lib/common/json-body';
import { z } from 'zod';
import { badRequest } from '@/lib/common/errors';
import { config } from '@/lib/config';
import { getDatabase } from '@/lib/db/client';
import { listEvaluationRuns, publicEvaluationRun } from '@/lib/db/evaluation-runs';
import { pathRoots, publicText } from '@/lib/common/public-path';
import { startBackgroundEvaluation } from '@/lib/evaluation/background';
import { listQuestionSets } from '@/lib/evaluation/question-sets';
import { QuestionFileError } from '@/lib/evaluation/questions';
import { PIPELINES } from '@/lib/pipelines/registry';
import { getRetrievalService } from '@/lib/pipelines/service';

export const dynamic = 'force-dynamic';

export const GET = guarded('read', async () => {
  const db = await getDatabase();
  const roots = pathRoots(config());
  return Response.json({
    runs: (await listEvaluationRuns(db)).map((r) => publicEvaluationRun(r, roots)),
    questionSets: listQuestionSets(config().questionPaths).map((s) => s.name),
    pipelines: PIPELINES,
  });
});

const body = z.object({
  questionSet: plainText(200, 'the question set').pipe(z.string().min(1, 'name a question set')),
  pipelines: z.array(z.enum(PIPELINES)).min(1, 'choose at least one pipeline'),
  limit: z.number().int().positive().max(100_000).optional(),
});

/** POST {questionSet, pipelines, limit?} starts a stored evaluation run in the background → 202 {runId}. */
export const POST = guarded(
  'evaluate',
  async (request: Request) => {
    const input = await readJsonAs(request, body);
    const cfg = config();
    const set = listQuestionSets(cfg.questionPaths).find((s) => s.name === input.questionSet);
    if (!set) throw badRequest(`no question set named ${input.questionSet} (sets come from ASSAY_QUESTIONS)`);
    const db = await getDatabase();
    try {
      const runId = await startBackgroundEvaluation(db, getRetrievalService(db, cfg), {
        questionsFile: set.path,
        pipelines: input.pipelines,
        limit: input.limit,
      });
      return Response.json({ runId }, { status: 202 });
    } catch (error) {
      if (error instanceof QuestionFileError) throw badRequest(publicText(error.message, pathRoots(cfg)));
      throw error;
    }
  },
  'start evaluation',
);
