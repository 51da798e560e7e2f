'use server';

import { headers } from 'next/headers';
import { chargeStoredAnswer } from '@/lib/services/ask';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { formInput, queryList } from '@/lib/common/contract';
import { allowedViewer } from '@/app/allowed-viewer';
import { type ActionOutcome, actionError } from '@/lib/common/errors';
import { askAgain, importFound, lookForPapersForAnswer } from '@/lib/services/paper-search';

/**
 * "Look for papers": anyone who may ask searches OpenAlex and Europe PMC from an answer the corpus could not give and
 * asks again; only admins import (the import job, as on /import).
 */
// An id that cannot be one is read as none: the service then answers "no such search" (or answer).
const recordId = z
  .string()
  .regex(/^[a-z0-9]{10,40}$/i)
  .catch('')
  .default('');
const answerForm = z.object({ answerId: recordId });
const searchForm = z.object({ searchId: recordId, pmcid: queryList(z.string()).transform((ids) => ids.slice(0, 50)) });

export async function lookForPapersAction(_previous: ActionOutcome, form: FormData): Promise<ActionOutcome> {
  let id: string;
  const viewer = await allowedViewer('ask');
  try {
    id = await lookForPapersForAnswer(formInput(answerForm, form).answerId, viewer.user?.email ?? null);
  } catch (error) {
    return actionError(error, 'look for papers');
  }
  redirect(`/found/${id}`);
}

export async function importFoundAction(_previous: ActionOutcome, form: FormData): Promise<ActionOutcome> {
  const { searchId, pmcid: pmcids } = formInput(searchForm, form);
  const viewer = await allowedViewer('import');
  try {
    const { papers } = await importFound(searchId, pmcids, viewer.user?.email ?? null);
    revalidatePath(`/found/${searchId}`);
    return { ok: true, message: `Queued the import of ${papers.length} paper${papers.length === 1 ? '' : 's'} (${papers.join(', ')}); this page follows it.` };
  } catch (error) {
    return actionError(error, 'import found papers');
  }
}

export async function askAgainAction(_previous: ActionOutcome, form: FormData): Promise<ActionOutcome> {
  let id: string;
  const viewer = await allowedViewer('ask');
  try {
    chargeStoredAnswer(viewer, await headers());
    id = await askAgain(formInput(searchForm, form).searchId);
  } catch (error) {
    return actionError(error, 'ask again');
  }
  redirect(`/answers/${id}`);
}
