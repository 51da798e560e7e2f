'use server';

import { headers } from 'next/headers';
import { requireAccess } from '@/lib/auth/session';
import { redirect } from 'next/navigation';
import { ANSWER_MODES, askAndStore } from '@/lib/answer/service';
import { actionError } from '@/lib/common/errors';
import { config } from '@/lib/config';
import { getDatabase } from '@/lib/db/client';
import { isPipelineName } from '@/lib/pipelines/registry';
import { getRetrievalService } from '@/lib/pipelines/service';

/** Asks a question from the form, stores the answer and opens it at its own URL. */
export async function askAction(_previous: { ok: false; error: string } | null, form: FormData): Promise<{ ok: false; error: string }> {
  const question = String(form.get('question') ?? '').trim();
  const pipeline = String(form.get('pipeline') ?? 'hybrid');
  const mode = String(form.get('mode') ?? 'auto');
  if (question.length < 3 || question.length > 2000) return { ok: false, error: 'ask a question of 3 to 2,000 characters' };
  if (!isPipelineName(pipeline) || !(ANSWER_MODES as readonly string[]).includes(mode)) return { ok: false, error: 'unknown pipeline or mode' };
  let id: string;
  try {
    await requireAccess(await headers(), 'ask');
    const cfg = config();
    const db = await getDatabase();
    ({ id } = await askAndStore(db, getRetrievalService(db, cfg), cfg, { question, pipeline, mode: mode as (typeof ANSWER_MODES)[number] }));
  } catch (error) {
    return actionError(error, 'ask');
  }
  redirect(`/answers/${id}`);
}
