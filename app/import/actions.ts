'use server';

import { headers } from 'next/headers';
import { revalidatePath } from 'next/cache';
import { requireAccess } from '@/lib/services/access';
import { queueMetadata } from '@/lib/services/jobs';

/** Queues the paper-metadata job from the import page (admins): missing and failed papers, or every paper. */
export async function fetchMetadataAction(form: FormData) {
  await requireAccess(await headers(), 'import');
  await queueMetadata(form.get('refresh') === 'all');
  revalidatePath('/import');
}
