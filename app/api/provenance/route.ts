import { readInput } from '@/lib/common/contract';
import { guarded } from '@/lib/services/access';
import { provenance } from '@/lib/services/answers';
import { provenanceContract } from './contract';

export const dynamic = 'force-dynamic';

/**
 * GET ?paper=&paragraph=&sentence=start-end&cell=&tuple=…&record= → what the provenance panel shows for one cited item:
 * the paper, the paragraph in context with the cited sentence's span, the structured record, the tuples with
 * their source sentences and their subgraph.
 */
export const GET = guarded(
  'read',
  async (request: Request) => {
    const { query: q } = await readInput(request, undefined, provenanceContract);
    const details = await provenance({
      paperId: q.paper,
      paragraphId: q.paragraph,
      sentence: q.sentence,
      recordId: q.record,
      tupleIds: q.tuple,
      cell: q.cell,
    });
    return Response.json(details);
  },
  'provenance',
);
