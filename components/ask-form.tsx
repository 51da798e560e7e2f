'use client';

import { useActionState } from 'react';
import { AnswerModeOptions, PipelineOptions } from './pipeline-options';

/** Asks a question through the server action; the answer opens at its own URL. */
/** A server action taking the form and returning an error to show (on success it redirects). */
export type FormAction = (previous: { ok: false; error: string } | null, form: FormData) => Promise<{ ok: false; error: string }>;

export function AskForm({
  pipelines,
  modelId,
  askAction,
}: {
  pipelines: { name: string; description: string }[];
  modelId: string | null;
  askAction: FormAction;
}) {
  const [state, action, pending] = useActionState(askAction, null);
  return (
    <form action={action} className="space-y-2 rounded-lg border border-slate-200 bg-white p-4" aria-label="Ask a question">
      <label htmlFor="ask-question" className="block text-sm font-medium text-slate-700">
        Question
      </label>
      <textarea
        id="ask-question"
        name="question"
        required
        minLength={3}
        maxLength={2000}
        rows={2}
        placeholder="What is the superconducting transition temperature of MgB2?"
        className="w-full rounded border border-slate-300 px-3 py-2 text-sm"
      />
      <div className="flex flex-wrap items-center gap-3 text-sm text-slate-700">
        <label>
          Pipeline{' '}
          <select name="pipeline" defaultValue="hybrid" className="rounded border border-slate-300 px-2 py-1" aria-label="Pipeline">
            <PipelineOptions pipelines={pipelines} />
          </select>
        </label>
        <label>
          Answer{' '}
          <select name="mode" defaultValue="auto" className="rounded border border-slate-300 px-2 py-1" aria-label="Answer mode">
            <AnswerModeOptions modelId={modelId} />
          </select>
        </label>
        <button type="submit" disabled={pending} className="ml-auto rounded bg-teal-700 px-4 py-1.5 font-medium text-white disabled:opacity-50">
          {pending ? 'Answering…' : 'Ask'}
        </button>
      </div>
      {state?.error && (
        <p role="alert" className="text-sm text-red-700">
          {state.error}
        </p>
      )}
    </form>
  );
}
