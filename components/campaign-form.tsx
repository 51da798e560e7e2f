'use client';

import { useActionState } from 'react';

/** What the form sent, returned with an error so every field shows it again (a browser cannot refill a file input). */
export interface CampaignFormValues {
  name: string;
  rubric: string;
  pipelines: string[];
  answerMode: string;
  graders: string[];
  gradersPerItem: number;
  history: string[];
  fileName: string | null;
}

export type CampaignFormResult = { ok: false; error: string; values?: CampaignFormValues };

/**
 * The new-campaign form. Its defaults are valid (the first rubric, graders per item no more than the graders there
 * are), and a refused form comes back with every field as it was sent and the reason above the button.
 */
export function CampaignForm({
  rubrics,
  pipelines,
  graders,
  history,
  createCampaignAction,
}: {
  createCampaignAction: (previous: CampaignFormResult | null, form: FormData) => Promise<CampaignFormResult>;
  rubrics: { id: string; label: string; summary: string }[];
  pipelines: { name: string; description: string }[];
  graders: { id: string; label: string }[];
  history: string[];
}) {
  const [state, action, pending] = useActionState(createCampaignAction, null);
  const v = state?.values;
  // A new key after each refusal: the fields are drawn again with what was sent as their defaults.
  const key = state ? `${state.error}:${Date.now()}` : 'new';
  return (
    <form action={action} className="space-y-4 text-sm" aria-label="New campaign" key={key}>
      <label className="block">
        Name
        <input name="name" required maxLength={200} defaultValue={v?.name ?? ''} className="mt-1 w-full rounded border border-slate-300 px-2 py-1" />
      </label>
      <fieldset className="space-y-1">
        <legend className="font-medium">Rubric: how each answer is graded</legend>
        {rubrics.map((r, i) => (
          <label key={r.id} className="flex items-start gap-2">
            <input type="radio" name="rubric" value={r.id} defaultChecked={v ? v.rubric === r.id : i === 0} className="mt-1" />
            <span>
              {r.label} <span className="text-slate-600">— {r.summary}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <fieldset className="space-y-1">
        <legend className="font-medium">Pipelines to compare (two for pairwise)</legend>
        {pipelines.map((p) => (
          <label key={p.name} className="flex items-start gap-2">
            <input type="checkbox" name="pipelines" value={p.name} defaultChecked={v?.pipelines.includes(p.name)} className="mt-1" aria-label={p.name} />
            <span>
              <span className="font-medium">{p.name}</span> <span className="text-slate-600">— {p.description}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <label className="block">
        Answer mode
        <select name="answerMode" defaultValue={v?.answerMode ?? 'auto'} className="ml-2 rounded border border-slate-300 px-1">
          <option value="auto">auto (the model when configured, else extractive)</option>
          <option value="extractive">extractive (no model)</option>
        </select>
      </label>
      <fieldset className="space-y-1">
        <legend className="font-medium">Graders (accounts with the expert or admin role)</legend>
        {graders.length === 0 && <p className="text-amber-800">No experts yet: give accounts the expert role on the Users page.</p>}
        {graders.map((g) => (
          <label key={g.id} className="flex items-center gap-2">
            <input type="checkbox" name="graders" value={g.id} defaultChecked={v?.graders.includes(g.id)} /> {g.label}
          </label>
        ))}
      </fieldset>
      <label className="block">
        Graders per item
        <input
          name="gradersPerItem"
          type="number"
          min={1}
          max={Math.max(graders.length, 1)}
          defaultValue={v?.gradersPerItem ?? Math.min(2, Math.max(graders.length, 1))}
          className="ml-2 w-16 rounded border border-slate-300 px-1"
        />
        <span className="ml-2 text-slate-600">each item is graded by this many of the chosen graders (at most as many as you choose)</span>
      </label>
      <fieldset className="space-y-2">
        <legend className="font-medium">Questions</legend>
        <label className="block">
          A file: JSON lines in the questions format, or CSV with a “question” column
          <input name="questions" type="file" accept=".jsonl,.json,.csv,.txt" className="mt-1 block" />
        </label>
        {v?.fileName && <p className="text-amber-800">Choose the file again ({v.fileName}): a browser does not keep a chosen file when a form is sent back.</p>}
        {history.length > 0 && (
          <details open={!!v?.history.length}>
            <summary className="cursor-pointer">…or pick questions asked before ({history.length})</summary>
            <div className="mt-2 max-h-60 space-y-1 overflow-auto">
              {history.map((q) => (
                <label key={q} className="flex items-start gap-2">
                  <input type="checkbox" name="history" value={q} defaultChecked={v?.history.includes(q)} className="mt-1" /> {q}
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
