import { readInput } from '@/lib/common/contract';
import { guarded } from '@/lib/services/access';
import { askerOf } from '@/lib/services/ask';
import { retrieveEvidence } from '@/lib/services/retrieve';
import { retrieveContract } from './contract';

export const dynamic = 'force-dynamic';

/** POST {question, pipeline?, k?, mode?} → the retrieval result: papers, evidence, value, abstention and trace. */
export const POST = guarded(
  'ask',
  async (request: Request) => {
    const started = performance.now();
    const { body } = await readInput(request, undefined, retrieveContract);
    const found = await retrieveEvidence(body.question, body.pipeline, {
      k: body.k,
      mode: body.mode,
      signal: request.signal,
      client: askerOf(request.headers),
    });
    // How long the handler took, apart from the network and the framework (read by bench load's breakdown).
    return Response.json(found, { headers: { 'Server-Timing': `handler;dur=${(performance.now() - started).toFixed(1)}` } });
  },
  'retrieve',
);
