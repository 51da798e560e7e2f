import { z } from 'zod';
import type { Contract, Json } from '@/lib/common/contract';
import type { entityNeighbourhood } from '@/lib/services/graph';

// Entity keys: "f:<formula>", "m:<lexicon key>", "p:<property>", "v:<dimension:value>", "n:<folded name>" …
const key = z
  .string({ error: 'key is an entity key such as f:MgB2' })
  .min(3, 'key is an entity key such as f:MgB2')
  .max(300, 'key is too long')
  .regex(/^[a-z]+:\S/, 'key is an entity key such as f:MgB2')
  .refine((k) => !k.includes('\0'), 'key is an entity key such as f:MgB2');

/** GET /api/graph/neighbourhood?key=<entity key> → the entity's neighbourhood as a graph view. */
export const neighbourhoodContract = { query: z.object({ key }) } satisfies Contract;
export type NeighbourhoodQuery = z.input<typeof neighbourhoodContract.query>;
export type NeighbourhoodResponse = Json<Awaited<ReturnType<typeof entityNeighbourhood>>>;
