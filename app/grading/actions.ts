'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { formInput, queryList } from '@/lib/common/contract';
import { allowedViewer } from '@/app/allowed-viewer';
import { actionError, AppError } from '@/lib/common/errors';
import { idParam } from '@/lib/common/params';
import type { CampaignFormResult, CampaignFormValues } from '@/components/campaign-form';
import { adjudicate, continuePreparation, createCampaignFor, judgeCampaign, setCampaignOpen } from '@/lib/services/grading';

/** Ids in a form: those that cannot be one are left out. */
const ids = queryList(z.string()).transform((list) => list.map(idParam).filter((id): id is string => !!id));

/**
 * The new-campaign form, read leniently: what it holds is checked by createCampaignFor, which says what is wrong, and
 * the form is drawn again with everything as it was sent.
 */
const campaignForm = z.object({
  name: z
    .string()
    .default('')
    .transform((s) => s.trim().slice(0, 200)),
  rubric: z.string().default(''),
  pipelines: queryList(z.string()),
  answerMode: z.string().default('auto'),
  graders: ids,
  gradersPerItem: z.string().default('1').transform(Number),
  history: queryList(z.string()),
});

/** The forms naming a campaign (and what to do with it). */
const campaignActionForm = z.object({
  campaign: z.string().default('').transform(idParam),
  open: z.string().optional(),
  item: ids,
  adjudicate: z.string().optional(),
});

/** Creates a campaign from the form (admin), queues the answering of every item by every pipeline, opens its page. */
export async function createCampaignAction(_previous: CampaignFormResult | null, form: FormData): Promise<CampaignFormResult> {
  let id: string;
  const file = form.get('questions');
  const values: CampaignFormValues = {
    ...formInput(campaignForm, form),
    fileName: file instanceof File && file.size > 0 ? file.name.slice(0, 200) : null,
  };
  const viewer = await allowedViewer('campaigns');
  try {
    id = await createCampaignFor({ ...values, graderIds: values.graders, file: file instanceof File ? file : null }, viewer.user?.id ?? null);
  } catch (error) {
    // The form is drawn again with everything as it was sent.
    return { ...actionError(error, 'create campaign'), values };
  }
  redirect(`/grading/${id}`);
}

/** The campaign an admin's form names (the role is checked first). */
async function adminCampaign(form: FormData): Promise<{ id: string } & z.infer<typeof campaignActionForm>> {
  await allowedViewer('campaigns');
  const input = formInput(campaignActionForm, form);
  if (!input.campaign) throw new AppError('not-found', 'no such campaign');
  return { ...input, id: input.campaign };
}

/** Closes a campaign (grades become visible to its graders; no more saving) or opens it again. */
export async function setCampaignOpenAction(form: FormData) {
  const { id, open } = await adminCampaign(form);
  await setCampaignOpen(id, open === 'true');
  revalidatePath(`/grading/${id}`);
}

/** Continues answering a campaign whose preparation stopped (a restart, a failing model). */
export async function continuePreparationAction(form: FormData) {
  const { id } = await adminCampaign(form);
  await continuePreparation(id);
  revalidatePath(`/grading/${id}`);
}

/** Sends items back for adjudication (an admin grades them again), or takes them off that list. */
export async function adjudicateAction(form: FormData) {
  const { id, item: items, adjudicate: on } = await adminCampaign(form);
  await adjudicate(id, items, on !== 'false');
  revalidatePath(`/grading/${id}/results`);
}

/** Has the configured judge model grade every item of the campaign as one more rater. */
export async function judgeCampaignAction(form: FormData) {
  const { id } = await adminCampaign(form);
  await judgeCampaign(id);
  revalidatePath(`/grading/${id}/results`);
}
