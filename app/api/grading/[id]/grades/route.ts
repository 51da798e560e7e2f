import { z } from 'zod';
import { guarded } from '@/lib/auth/guard';
import { AppError, badRequest } from '@/lib/common/errors';
import { readJsonAs } from '@/lib/common/json-body';
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
    const input = await readJsonAs(request, body, { fieldPaths: true });
    const db = await getDatabase();
    const { campaign, item } = await gradableItem(db, id, input.ordinal, viewer);
    if (campaign.status !== 'open') throw new AppError('conflict', `this campaign is ${campaign.status}; grades can be saved only while it is open`);
    const rubric = RUBRICS[campaign.rubric as RubricId];
    const answerIds = item.answers.map((a) => a.id);
    const invalid = checkMarks(rubric, input.marks, answerIds);
    if (invalid) throw badRequest(invalid);
    if (input.submit) {
      const missing = missingMarks(rubric, input.marks, answerIds);
      if (missing.length) throw badRequest(`to submit, give ${missing.join(', ')}`);
    }
    const saved = await saveGrade(db, {
      itemId: item.id,
      graderId: viewer.user?.id as string,
      marks: input.marks,
      submit: input.submit,
      revision: input.revision,
    });
    return Response.json(saved);
  },
  'save grade',
);
