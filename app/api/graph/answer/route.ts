import { readInput } from '@/lib/common/contract';
import { guarded } from '@/lib/services/access';
import { graphBehindAnswer } from '@/lib/services/graph';
import { answerGraphContract } from './contract';

export const dynamic = 'force-dynamic';

/**
 * GET ?tuple=…&paragraph=… → the graph behind an answer: the named tuples and the tuples of the named paragraphs
 * as nodes, edges and the tuples behind them (nodes capped as every graph view is).
 */
export const GET = guarded(
  'read',
  async (request: Request) => {
    const { query } = await readInput(request, undefined, answerGraphContract);
    return Response.json(await graphBehindAnswer({ tupleIds: query.tuple, paragraphIds: query.paragraph }));
  },
  'answer graph',
);
