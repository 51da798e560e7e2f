import { readInput } from '@/lib/common/contract';
import { guarded } from '@/lib/services/access';
import { entityNeighbourhood } from '@/lib/services/graph';
import { neighbourhoodContract } from './contract';

export const dynamic = 'force-dynamic';

/** GET ?key=<entity key> → the entity's neighbourhood as a graph view: nodes, edges and the tuples behind them. */
export const GET = guarded(
  'read',
  async (request: Request) => {
    const { query } = await readInput(request, undefined, neighbourhoodContract);
    return Response.json(await entityNeighbourhood(query.key));
  },
  'graph neighbourhood',
);
