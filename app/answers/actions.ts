'use server';

import { allowedViewer } from '@/app/allowed-viewer';
import { redirect } from 'next/navigation';
import { askRequestSchema, requestProblem } from '@/lib/services/vocabulary';
import { formFields } from '@/lib/common/contract';
import { actionError } from '@/lib/common/errors';
import { ask, chargeStoredAnswer } from '@/lib/services/ask';
import { headers } from 'next/headers';

/** Asks a question from the form, stores the answer and opens it at its own URL. */
export async function askAction(_previous: { ok: false; error: string } | null, form: FormData): Promise<{ ok: false; error: string }> {
  // The ask form's fields through the same schema as the answer routes' bodies (the form's own defaults first).
  const request = askRequestSchema.safeParse({ question: '', pipeline: 'hybrid', mode: 'auto', ...formFields(form) });
  if (!request.success) return { ok: false, error: requestProblem(request.error) };
  let id: string;
  const viewer = await allowedViewer('ask');
  try {
    chargeStoredAnswer(viewer, await headers());
    ({ id } = await ask(request.data));
  } catch (error) {
    return actionError(error, 'ask');
  }
  redirect(`/answers/${id}`);
}
