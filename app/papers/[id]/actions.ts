'use server';

import { headers } from 'next/headers';
import { requireAccess } from '@/lib/services/access';
import { revalidatePath } from 'next/cache';
import { AppError } from '@/lib/common/errors';
import { idParam } from '@/lib/common/params';
import { restoreVersion } from '@/lib/services/library';

/** Restores an earlier version of a paper (lib/services/library.ts says what that does). */
export async function restoreVersionAction(form: FormData) {
  await requireAccess(await headers(), 'curate');
  const versionId = idParam(String(form.get('version') ?? ''));
  if (!versionId) throw new AppError('bad-request', 'no version given');
  const { paperId } = await restoreVersion(versionId);
  revalidatePath(`/papers/${paperId}`);
}
