import { z } from 'zod';
import { type Contract, type Json, queryList } from '@/lib/common/contract';
import type { provenance } from '@/lib/services/answers';

const id = z.string().regex(/^[\w:.-]{1,200}$/, 'malformed id');

/** GET /api/provenance?paper=&paragraph=&sentence=start-end&cell=&tuple=…&record= → one cited item's provenance. */
export const provenanceContract = {
  query: z
    .object({
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
      tuple: queryList(id, { max: 50, tooMany: 'at most 50 tuples' }),
    })
    .refine((q) => q.paper || q.paragraph || q.record || q.tuple.length > 0, 'name a paper, paragraph, record or tuple'),
} satisfies Contract;
export type ProvenanceQuery = z.input<typeof provenanceContract.query>;
export type ProvenanceResponse = Json<Awaited<ReturnType<typeof provenance>>>;
