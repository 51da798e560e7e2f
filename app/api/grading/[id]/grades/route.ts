import { readInput } from '@/lib/common/contract';
import { guarded } from '@/lib/services/access';
import { saveOwnGrade } from '@/lib/services/grading';
import { saveGradeContract } from './contract';

export const dynamic = 'force-dynamic';

/**
 * PUT {ordinal, marks, submit, revision}: the grader's own grade of one item, autosaved as a draft or submitted →
 * {revision, submitted}. Only the item's assigned grader (or an admin adjudicating) may save it, only while the
 * campaign is open; a save based on an older revision than stored is 409.
 */
export const PUT = guarded(
  'grade',
  async (request: Request, ctx: { params: Promise<{ id: string }> }, viewer) => {
    const { params, body } = await readInput(request, ctx, saveGradeContract);
    return Response.json(await saveOwnGrade(params.id, viewer, body));
  },
  'save grade',
);
