'use server';

import { headers } from 'next/headers';
import { requireAccess } from '@/lib/auth/session';
import { revalidatePath } from 'next/cache';
import { AppError } from '@/lib/common/errors';
import { getDatabase } from '@/lib/db/client';
import { allowMerge, undoMerge } from '@/lib/db/graph';

/**
 * Server actions of the knowledge-graph page. Undoing a merge changes the graph's merge count, which is part of
 * the corpus version, so the retrieval index picks the change up on the next question.
 */
const entityKey = (form: FormData) => {
  const key = String(form.get('key') ?? '');
  if (!key || key.length > 500) throw new AppError('bad-request', 'no entity key given');
  return key;
};

export async function undoMergeAction(form: FormData) {
  await requireAccess(await headers(), 'curate');
  await undoMerge(await getDatabase(), entityKey(form));
  revalidatePath('/graph');
}

export async function allowMergeAction(form: FormData) {
  await requireAccess(await headers(), 'curate');
  await allowMerge(await getDatabase(), entityKey(form));
  revalidatePath('/graph');
}
