'use server';

import { allowedViewer } from '@/app/allowed-viewer';
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { formInput } from '@/lib/common/contract';
import { setLinkKept, setMergeAllowed } from '@/lib/services/graph';

/**
 * Server actions of the knowledge-graph page. Undoing a merge changes the graph's merge count, which is part of
 * the corpus version, so the retrieval index picks the change up on the next question.
 */
const entityForm = z.object({ key: z.string({ error: 'no entity key given' }).min(1, 'no entity key given').max(500, 'no entity key given') });
const entityKey = (form: FormData) => formInput(entityForm, form).key;

export async function undoMergeAction(form: FormData) {
  await allowedViewer('curate');
  await setMergeAllowed(entityKey(form), false);
  revalidatePath('/graph');
}

export async function allowMergeAction(form: FormData) {
  await allowedViewer('curate');
  await setMergeAllowed(entityKey(form), true);
  revalidatePath('/graph');
}

export async function rejectLinkAction(form: FormData) {
  await allowedViewer('curate');
  await setLinkKept(entityKey(form), false);
  revalidatePath('/graph');
}

export async function restoreLinkAction(form: FormData) {
  await allowedViewer('curate');
  await setLinkKept(entityKey(form), true);
  revalidatePath('/graph');
}
