import { z } from 'zod';
import { guarded } from '@/lib/auth/guard';
import { AppError, badRequest } from '@/lib/common/errors';
import { readJson } from '@/lib/common/json-body';
import { idParam } from '@/lib/common/params';
import { getDatabase } from '@/lib/db/client';
import { saveGrade } from '@/lib/db/campaigns';
import { gradableItem } from '@/lib/grading/grader-view';
import { checkMarks, marksSchema, missingMarks, RUBRICS, type RubricId } from '@/lib/grading/rubrics';

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
    const parsed = body.safeParse(await readJson(request));
    if (!parsed.success) throw badRequest(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
    const db = await getDatabase();
    const { campaign, item } = await gradableItem(db, id, parsed.data.ordinal, viewer);
    if (campaign.status !== 'open') throw new AppError('conflict', `this campaign is ${campaign.status}; grades can be saved only while it is open`);
    const rubric = RUBRICS[campaign.rubric as RubricId];
    const answerIds = item.answers.map((a) => a.id);
    const invalid = checkMarks(rubric, parsed.data.marks, answerIds);
    if (invalid) throw badRequest(invalid);
    if (parsed.data.submit) {
      const missing = missingMarks(rubric, parsed.data.marks, answerIds);
      if (missing.length) throw badRequest(`to submit, give ${missing.join(', ')}`);
    }
    const saved = await saveGrade(db, {
      itemId: item.id,
      graderId: viewer.user?.id as string,
      marks: parsed.data.marks,
      submit: parsed.data.submit,
      revision: parsed.data.revision,
    });
    return Response.json(saved);
  },
  'save grade',
);
