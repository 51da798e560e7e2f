import { guarded } from '@/lib/services/access';
import { z } from 'zod';
import { ANSWER_GRAPH_MAX_PARAGRAPHS, ANSWER_GRAPH_MAX_TUPLES } from '@/lib/services/vocabulary';
import { badRequest } from '@/lib/common/errors';
import { graphBehindAnswer } from '@/lib/services/graph';

export const dynamic = 'force-dynamic';

const id = z.string().regex(/^[\w:.-]{1,200}$/, 'malformed id');
const query = z.object({
  tuple: z.array(id).max(ANSWER_GRAPH_MAX_TUPLES, `at most ${ANSWER_GRAPH_MAX_TUPLES} tuples`),
  paragraph: z.array(id).max(ANSWER_GRAPH_MAX_PARAGRAPHS, `at most ${ANSWER_GRAPH_MAX_PARAGRAPHS} paragraphs`),
});

/**
 * GET ?tuple=…&paragraph=… → the graph behind an answer: the named tuples and the tuples of the named paragraphs
 * as nodes, edges and the tuples behind them (nodes capped as every graph view is).
 */
export const GET = guarded(
  'read',
  async (request: Request) => {
    const sp = new URL(request.url).searchParams;
    const parsed = query.safeParse({ tuple: sp.getAll('tuple'), paragraph: sp.getAll('paragraph') });
    if (!parsed.success) throw badRequest(parsed.error.issues.map((i) => i.message).join('; '));
    if (parsed.data.tuple.length + parsed.data.paragraph.length === 0) throw badRequest('name a tuple or a paragraph');
    return Response.json(await graphBehindAnswer({ tupleIds: parsed.data.tuple, paragraphIds: parsed.data.paragraph }));
  },
  'answer graph',
);
