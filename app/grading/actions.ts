'use server';

import { revalidatePath } from 'next/cache';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { requireAccess } from '@/lib/auth/session';
import { actionError, AppError } from '@/lib/common/errors';
import { idParam } from '@/lib/common/params';
import { adjudicate, continuePreparation, createCampaignFor, judgeCampaign, setCampaignOpen } from '@/lib/services/grading';

/** Creates a campaign from the form (admin), queues the answering of every item by every pipeline, opens its page. */
export async function createCampaignAction(_previous: { ok: false; error: string } | null, form: FormData): Promise<{ ok: false; error: string }> {
  let id: string;
  try {
    const viewer = await requireAccess(await headers(), 'campaigns');
    const file = form.get('questions');
    id = await createCampaignFor(
      {
        name: String(form.get('name') ?? '').trim(),
        rubric: String(form.get('rubric') ?? ''),
        pipelines: form.getAll('pipelines').map(String),
        answerMode: String(form.get('answerMode') ?? 'auto'),
        graderIds: form
          .getAll('graders')
          .map((g) => idParam(String(g)))
          .filter((g): g is string => !!g),
        gradersPerItem: Number(form.get('gradersPerItem') ?? 2),
        file: file instanceof File ? file : null,
        history: form.getAll('history').map(String),
      },
      viewer.user?.id ?? null,
    );
  } catch (error) {
    return actionError(error, 'create campaign');
  }
  redirect(`/grading/${id}`);
}

/** The campaign an admin's form names (the role is checked first). */
async function adminCampaign(form: FormData): Promise<string> {
  await requireAccess(await headers(), 'campaigns');
  const id = idParam(String(form.get('campaign') ?? ''));
  if (!id) throw new AppError('not-found', 'no such campaign');
  return id;
}

/** Closes a campaign (grades become visible to its graders; no more saving) or opens it again. */
export async function setCampaignOpenAction(form: FormData) {
  const id = await adminCampaign(form);
  await setCampaignOpen(id, form.get('open') === 'true');
  revalidatePath(`/grading/${id}`);
}

/** Continues answering a campaign whose preparation stopped (a restart, a failing model). */
export async function continuePreparationAction(form: FormData) {
  const id = await adminCampaign(form);
  await continuePreparation(id);
  revalidatePath(`/grading/${id}`);
}

/** Sends items back for adjudication (an admin grades them again), or takes them off that list. */
export async function adjudicateAction(form: FormData) {
  const id = await adminCampaign(form);
  const items = form
    .getAll('item')
    .map((i) => idParam(String(i)))
    .filter((i): i is string => !!i);
  await adjudicate(id, items, form.get('adjudicate') !== 'false');
  revalidatePath(`/grading/${id}/results`);
}

/** Has the configured judge model grade every item of the campaign as one more rater. */
export async function judgeCampaignAction(form: FormData) {
  const id = await adminCampaign(form);
  await judgeCampaign(id);
  revalidatePath(`/grading/${id}/results`);
}
