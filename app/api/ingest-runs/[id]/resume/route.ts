import { readInput } from '@/lib/common/contract';
import { guarded } from '@/lib/services/access';
import { resumeImport } from '@/lib/services/imports';
import { type ResumeImportResponse, resumeImportContract } from './contract';

export const dynamic = 'force-dynamic';

/** POST: completes an interrupted import run from the stage it stopped in → 202 {runId}. */
export const POST = guarded(
  'import',
  async (request: Request, ctx: { params: Promise<{ id: string }> }) => {
    const { params } = await readInput(request, ctx, resumeImportContract);
    await resumeImport(params.id);
    return Response.json({ runId: params.id } satisfies ResumeImportResponse, { status: 202 });
  },
  'resume import',
);
