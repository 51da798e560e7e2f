'use client';

import { useActionState } from 'react';
import type { FormAction } from './ask-form';

/** The admin's form for a new campaign: questions (file or history), pipelines, rubric, graders. */
export function CampaignForm({
  rubrics,
  pipelines,
  graders,
  history,
  createCampaignAction,
}: {
  createCampaignAction: FormAction;
  rubrics: { id: string; label: string; summary: string }[];
  pipelines: string[];
  graders: { id: string; label: string }[];
  history: string[];
}) {
  const [state, action, pending] = useActionState(createCampaignAction, null);
  return (
    <form action={action} className="space-y-4 text-sm" aria-label="New campaign">
      <label className="block">
        Name
        <input name="name" required maxLength={200} className="mt-1 w-full rounded border border-slate-300 px-2 py-1" />
      </label>
      <fieldset className="space-y-1">
        <legend className="font-medium">Rubric</legend>
        {rubrics.map((r, i) => (
          <label key={r.id} className="flex items-start gap-2">
            <input type="radio" name="rubric" value={r.id} defaultChecked={i === 0} className="mt-1" />
            <span>
              {r.label} <span className="text-slate-600">— {r.summary}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <fieldset className="flex flex-wrap gap-3">
        <legend className="font-medium">Pipelines to compare (two for pairwise)</legend>
        {pipelines.map((p) => (
          <label key={p} className="flex items-center gap-1">
            <input type="checkbox" name="pipelines" value={p} /> {p}
          </label>
        ))}
      </fieldset>
      <label className="block">
        Answer mode
        <select name="answerMode" defaultValue="auto" className="ml-2 rounded border border-slate-300 px-1">
          <option value="auto">auto (the model when configured, else extractive)</option>
          <option value="extractive">extractive (no model)</option>
        </select>
      </label>
      <fieldset className="space-y-1">
        <legend className="font-medium">Graders (accounts with the expert or admin role)</legend>
        {graders.length === 0 && <p className="text-amber-800">No experts yet: give accounts the expert role on the Users page.</p>}
        {graders.map((g) => (
          <label key={g.id} className="flex items-center gap-2">
            <input type="checkbox" name="graders" value={g.id} /> {g.label}
          </label>
        ))}
      </fieldset>
      <label className="block">
        Graders per item
        <input name="gradersPerItem" type="number" min={1} defaultValue={2} className="ml-2 w-16 rounded border border-slate-300 px-1" />
      </label>
      <fieldset className="space-y-2">
        <legend className="font-medium">Questions</legend>
        <label className="block">
          A file: JSON lines in the questions format, or CSV with a “question” column
          <input name="questions" type="file" accept=".jsonl,.json,.csv,.txt" className="mt-1 block" />
        </label>
        {history.length > 0 && (
          <details>
            <summary className="cursor-pointer">…or pick questions asked before ({history.length})</summary>
            <div className="mt-2 max-h-60 space-y-1 overflow-auto">
              {history.map((q) => (
                <label key={q} className="flex items-start gap-2">
                  <input type="checkbox" name="history" value={q} className="mt-1" /> {q}
                </label>
              ))}
            </div>
          </details>
        )}
      </fieldset>
      {state?.error && (
        <p role="alert" className="text-red-700">
          {state.error}
        </p>
      )}
      <button type="submit" disabled={pending} className="rounded bg-teal-700 px-4 py-1.5 font-medium text-white disabled:opacity-50">
        {pending ? 'Creating…' : 'Create and answer'}
      </button>
    </form>
  );
}
