'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { formInput } from '@/lib/common/contract';
import { allowedViewer } from '@/app/allowed-viewer';
import { queueMetadata } from '@/lib/services/jobs';

const metadataForm = z.object({ refresh: z.enum(['missing', 'all'], { error: 'refresh is missing or all' }).default('missing') });

/** Queues the paper-metadata job from the import page (admins): missing and failed papers, or every paper. */
export async function fetchMetadataAction(form: FormData) {
  await allowedViewer('import');
  await queueMetadata(formInput(metadataForm, form).refresh === 'all');
  revalidatePath('/import');
}
