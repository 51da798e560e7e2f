'use server';

import { allowedViewer } from '@/app/allowed-viewer';
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { formInput } from '@/lib/common/contract';
import { restoreVersion } from '@/lib/services/library';

const versionForm = z.object({ version: z.string({ error: 'no version given' }).regex(/^[\w-]{1,100}$/, 'no version given') });

/** Restores an earlier version of a paper (lib/services/library.ts says what that does). */
export async function restoreVersionAction(form: FormData) {
  await allowedViewer('curate');
  const { version } = formInput(versionForm, form);
  const { paperId } = await restoreVersion(version);
  revalidatePath(`/papers/${paperId}`);
}
