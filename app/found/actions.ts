'use server';

import { headers } from 'next/headers';
import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { requireAccess } from '@/lib/services/access';
import { type ActionOutcome, actionError } from '@/lib/common/errors';
import { askAgain, importFound, lookForPapersForAnswer } from '@/lib/services/paper-search';

/**
 * "Look for papers": anyone who may ask searches OpenAlex and Europe PMC from an answer the corpus could not give and
 * asks again; only admins import (the import job, as on /import).
 */
const idOf = (form: FormData, name: string) => {
  const id = String(form.get(name) ?? '');
  return /^[a-z0-9]{10,40}$/i.test(id) ? id : '';
};

export async function lookForPapersAction(_previous: ActionOutcome, form: FormData): Promise<ActionOutcome> {
  let id: string;
  try {
    const viewer = await requireAccess(await headers(), 'ask');
    id = await lookForPapersForAnswer(idOf(form, 'answerId'), viewer.user?.email ?? null);
  } catch (error) {
    return actionError(error, 'look for papers');
  }
  redirect(`/found/${id}`);
}

export async function importFoundAction(_previous: ActionOutcome, form: FormData): Promise<ActionOutcome> {
  const searchId = idOf(form, 'searchId');
  try {
    const viewer = await requireAccess(await headers(), 'import');
    const pmcids = form.getAll('pmcid').map(String).slice(0, 50);
    const { papers } = await importFound(searchId, pmcids, viewer.user?.email ?? null);
    revalidatePath(`/found/${searchId}`);
    return { ok: true, message: `Queued the import of ${papers.length} paper${papers.length === 1 ? '' : 's'} (${papers.join(', ')}); this page follows it.` };
  } catch (error) {
    return actionError(error, 'import found papers');
  }
}

export async function askAgainAction(_previous: ActionOutcome, form: FormData): Promise<ActionOutcome> {
  let id: string;
  try {
    await requireAccess(await headers(), 'ask');
    id = await askAgain(idOf(form, 'searchId'));
  } catch (error) {
    return actionError(error, 'ask again');
  }
  redirect(`/answers/${id}`);
}
