import { guarded } from '@/lib/services/access';
import { z } from 'zod';
import { badRequest } from '@/lib/common/errors';
import { entityNeighbourhood } from '@/lib/services/graph';

export const dynamic = 'force-dynamic';

// Entity keys: "f:<formula>", "m:<lexicon key>", "p:<property>", "v:<dimension:value>", "n:<folded name>" …
const key = z
  .string()
  .min(3, 'key is an entity key such as f:MgB2')
  .max(300, 'key is too long')
  .regex(/^[a-z]+:\S/, 'key is an entity key such as f:MgB2')
  .refine((k) => !k.includes('\0'), 'key is an entity key such as f:MgB2');

/** GET ?key=<entity key> → the entity's neighbourhood as a graph view: nodes, edges and the tuples behind them. */
export const GET = guarded(
  'read',
  async (request: Request) => {
    const parsed = key.safeParse(new URL(request.url).searchParams.get('key') ?? '');
    if (!parsed.success) throw badRequest(parsed.error.issues.map((i) => i.message).join('; '));
    return Response.json(await entityNeighbourhood(parsed.data));
  },
  'graph neighbourhood',
);
