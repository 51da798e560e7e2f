import { guarded } from '@/lib/services/access';
import { questionText } from '@/lib/services/vocabulary';
import { readJson } from '@/lib/common/json-body';
import { z } from 'zod';
import { badRequest } from '@/lib/common/errors';
import { PIPELINES } from '@/lib/services/vocabulary';
import { QUESTION_MODES } from '@/lib/services/vocabulary';
import { retrieveEvidence } from '@/lib/services/retrieve';

export const dynamic = 'force-dynamic';

const body = z.object({
  question: questionText,
  pipeline: z.enum(PIPELINES).default('json-qr'),
  k: z.number().int().min(1).max(50).optional(),
  /** aria only: auto (detected from the wording), explain, forward (prediction) or inverse (design). */
  mode: z.enum(QUESTION_MODES).optional(),
});

/** POST {question, pipeline?, k?, mode?} → the retrieval result: papers, evidence, value, abstention and trace. */
export const POST = guarded(
  'ask',
  async (request: Request) => {
    const started = performance.now();
    const json = await readJson(request);
    const parsed = body.safeParse(json);
    if (!parsed.success) throw badRequest(parsed.error.issues.map((i) => i.message).join('; '));
    const found = await retrieveEvidence(parsed.data.question, parsed.data.pipeline, { k: parsed.data.k, mode: parsed.data.mode, signal: request.signal });
    // How long the handler took, apart from the network and the framework (read by bench load's breakdown).
    return Response.json(found, { headers: { 'Server-Timing': `handler;dur=${(performance.now() - started).toFixed(1)}` } });
  },
  'retrieve',
);
