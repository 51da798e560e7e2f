import { guarded } from '@/lib/services/access';
import { z } from 'zod';
import { badRequest } from '@/lib/common/errors';
import { provenance } from '@/lib/services/answers';

export const dynamic = 'force-dynamic';

const id = z.string().regex(/^[\w:.-]{1,200}$/, 'malformed id');
const query = z.object({
  paper: id.optional(),
  paragraph: id.optional(),
  sentence: z
    .string()
    .regex(/^\d{1,7}-\d{1,7}$/, 'sentence is start-end')
    .transform((s) => {
      const [start, end] = s.split('-').map(Number);
      return { start, end };
    })
    .optional(),
  record: id.optional(),
  cell: z
    .string()
    .regex(/^table:[\w:.-]{1,200}#r\d{1,5}c\d{1,3}$/, 'cell is table:<id>#r<row>c<column>')
    .optional(),
  tuple: z.array(id).max(50, 'at most 50 tuples').default([]),
});

/**
 * GET ?paper=&paragraph=&sentence=start-end&cell=&tuple=…&record= → what the provenance panel shows for one cited item:
 * the paper, the paragraph in context with the cited sentence's span, the structured record, the tuples with
 * their source sentences and their subgraph.
 */
export const GET = guarded(
  'read',
  async (request: Request) => {
    const sp = new URL(request.url).searchParams;
    const parsed = query.safeParse({
      paper: sp.get('paper') ?? undefined,
      paragraph: sp.get('paragraph') ?? undefined,
      sentence: sp.get('sentence') ?? undefined,
      record: sp.get('record') ?? undefined,
      cell: sp.get('cell') ?? undefined,
      tuple: sp.getAll('tuple'),
    });
    if (!parsed.success) throw badRequest(parsed.error.issues.map((i) => i.message).join('; '));
    const q = parsed.data;
    if (!q.paper && !q.paragraph && !q.record && q.tuple.length === 0) throw badRequest('name a paper, paragraph, record or tuple');
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
