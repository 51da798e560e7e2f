import { z } from 'zod';
import { guarded } from '@/lib/services/access';
import { badRequest } from '@/lib/common/errors';
import { readJsonAs } from '@/lib/common/json-body';
import { idParam } from '@/lib/common/params';
import { marksSchema } from '@/lib/services/vocabulary';
import { saveOwnGrade } from '@/lib/services/grading';

export const dynamic = 'force-dynamic';

const body = z.object({
  ordinal: z.number().int().min(0).max(100_000),
  marks: marksSchema,
  submit: z.boolean().default(false),
  /** The revision the grader's screen last saw (0 for a new grade). */
  revision: z.number().int().min(0),
});

/**
 * PUT {ordinal, marks, submit, revision}: the grader's own grade of one item, autosaved as a draft or submitted →
 * {revision, submitted}. Only the item's assigned grader (or an admin adjudicating) may save it, only while the
 * campaign is open; a save based on an older revision than stored is 409.
 */
export const PUT = guarded(
  'grade',
  async (request: Request, ctx: { params: Promise<{ id: string }> }, viewer) => {
    const id = idParam((await ctx.params).id);
    if (!id) throw badRequest('no campaign id');
    const input = await readJsonAs(request, body, { fieldPaths: true });
    const saved = await saveOwnGrade(id, viewer, input);
    return Response.json(saved);
  },
  'save grade',
);
