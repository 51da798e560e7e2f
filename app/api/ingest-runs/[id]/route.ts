import { readInput } from '@/lib/common/contract';
import { AppError } from '@/lib/common/errors';
import { guarded } from '@/lib/services/access';
import { importRun } from '@/lib/services/imports';
import { importRunContract } from './contract';

export const dynamic = 'force-dynamic';

export const GET = guarded(
  'import',
  async (request: Request, ctx: { params: Promise<{ id: string }> }) => {
    const { params } = await readInput(request, ctx, importRunContract);
    const run = await importRun(params.id);
    if (!run) throw new AppError('not-found', 'no such import run');
    return Response.json({ run });
  },
  'import run',
);
