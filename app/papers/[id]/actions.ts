'use server';

import { headers } from 'next/headers';
import { requireAccess } from '@/lib/auth/session';
import { revalidatePath } from 'next/cache';
import { AppError } from '@/lib/common/errors';
import { idParam } from '@/lib/common/params';
import { config } from '@/lib/config';
import { getDatabase } from '@/lib/db/client';
import { restorePaperVersion } from '@/lib/db/papers';
import { startBackgroundIngest } from '@/lib/jobs/background';

/**
 * Restores an earlier version of a paper: its text and metadata come back, the text it replaces is kept as a version
 * in turn, and a job (shown on /import) structures the restored paragraphs and re-extracts the paper's graph.
 */
export async function restoreVersionAction(form: FormData) {
  await requireAccess(await headers(), 'curate');
  const versionId = idParam(String(form.get('version') ?? ''));
  if (!versionId) throw new AppError('bad-request', 'no version given');
  const db = await getDatabase();
  const { paperId, title } = await restorePaperVersion(db.prisma, versionId);
  await startBackgroundIngest(db, config(), [], 'restore', {
    changed: true,
    shownInputs: [`restored an earlier version of ${title ? `“${title}”` : paperId}`],
  });
  revalidatePath(`/papers/${paperId}`);
}
