'use server';

import { revalidatePath } from 'next/cache';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { requireAccess } from '@/lib/services/access';
import { actionError, AppError } from '@/lib/common/errors';
import { idParam } from '@/lib/common/params';
import type { CampaignFormResult, CampaignFormValues } from '@/components/campaign-form';
import { adjudicate, continuePreparation, createCampaignFor, judgeCampaign, setCampaignOpen } from '@/lib/services/grading';

/** Creates a campaign from the form (admin), queues the answering of every item by every pipeline, opens its page. */
export async function createCampaignAction(_previous: CampaignFormResult | null, form: FormData): Promise<CampaignFormResult> {
  let id: string;
  const file = form.get('questions');
  const values: CampaignFormValues = {
    name: String(form.get('name') ?? '')
      .trim()
      .slice(0, 200),
    rubric: String(form.get('rubric') ?? ''),
    pipelines: form.getAll('pipelines').map(String),
    answerMode: String(form.get('answerMode') ?? 'auto'),
    graders: form
      .getAll('graders')
      .map((g) => idParam(String(g)))
      .filter((g): g is string => !!g),
    gradersPerItem: Number(form.get('gradersPerItem') ?? 1),
    history: form.getAll('history').map(String),
    fileName: file instanceof File && file.size > 0 ? file.name.slice(0, 200) : null,
  };
  try {
    const viewer = await requireAccess(await headers(), 'campaigns');
    id = await createCampaignFor({ ...values, graderIds: values.graders, file: file instanceof File ? file : null }, viewer.user?.id ?? null);
  } catch (error) {
    // The form is drawn again with everything as it was sent.
    return { ...actionError(error, 'create campaign'), values };
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
