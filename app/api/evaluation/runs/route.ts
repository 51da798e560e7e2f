import { guarded } from '@/lib/services/access';
import { plainText } from '@/lib/common/params';
import { readJsonAs } from '@/lib/common/json-body';
import { z } from 'zod';
import { PIPELINES } from '@/lib/services/vocabulary';
import { evaluationOverview, startEvaluation } from '@/lib/services/evaluation';

export const dynamic = 'force-dynamic';

export const GET = guarded('read', async () => Response.json({ ...(await evaluationOverview()), pipelines: PIPELINES }));

const body = z.object({
  questionSet: plainText(200, 'the question set').pipe(z.string().min(1, 'name a question set')),
  pipelines: z.array(z.enum(PIPELINES)).min(1, 'choose at least one pipeline'),
  limit: z.number().int().positive().max(100_000).optional(),
});

/** POST {questionSet, pipelines, limit?} starts a stored evaluation run in the background → 202 {runId}. */
export const POST = guarded(
  'evaluate',
  async (request: Request) => Response.json({ runId: await startEvaluation(await readJsonAs(request, body)) }, { status: 202 }),
  'start evaluation',
);
