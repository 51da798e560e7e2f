'use client';

import type { RetrieveBody, RetrieveResponse } from '@/app/api/retrieve/contract';
import { callApi } from './api-client';
import { propertyEntry } from '@/lib/structure/properties';
import { useMutation } from '@tanstack/react-query';
import Link from 'next/link';
import { reasonText } from './reason-text';
import { useState, type FormEvent } from 'react';
import { evidenceById, evidenceHref, externalIdsOf, matchedMaterialName, provenanceOf } from '@/lib/evidence/model';
import { TraceList } from './trace-list';
import { PipelineHint, PipelineOptions } from './pipeline-options';
import { AriaView, DesignView } from './reasoning-view';

type Response = RetrieveResponse;
type PipelineName = NonNullable<RetrieveBody['pipeline']>;
type QuestionMode = NonNullable<RetrieveBody['mode']>;

const modes = [
  ['auto', 'detect from the wording'],
  ['explain', 'causal paths / analogues'],
  ['forward', 'forward prediction: conditions → properties'],
  ['inverse', 'inverse design: target properties → synthesis'],
] as const;

export function RetrievePanel({
  initialQuestion,
  initialPipeline,
  initialMode,
  pipelines,
}: {
  initialQuestion: string;
  initialPipeline: PipelineName;
  initialMode: QuestionMode;
  pipelines: { name: PipelineName; description: string }[];
}) {
  const [question, setQuestion] = useState(initialQuestion);
  const [pipeline, setPipeline] = useState(initialPipeline);
  const [mode, setMode] = useState(initialMode);
  const ask = useMutation({
    mutationFn: async (v: RetrieveBody): Promise<Response> => {
      return callApi('POST /api/retrieve', { body: v });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const url = new URL(window.location.href);
    url.searchParams.set('q', question);
    url.searchParams.set('pipeline', pipeline);
    if (pipeline === 'aria') url.searchParams.set('mode', mode);
    else url.searchParams.delete('mode');
    window.history.replaceState(null, '', url);
    ask.mutate(pipeline === 'aria' ? { question, pipeline, mode } : { question, pipeline });
  };
  const data = ask.data;
  return (
    <div className="space-y-4">
      <form onSubmit={submit} className="space-y-2 rounded-lg border border-slate-200 bg-white p-4" aria-label="Ask the corpus">
        <label htmlFor="question" className="block text-sm font-medium text-slate-700">
          Question
        </label>
        <textarea
          id="question"
          value={question}
          onChange={(e) => setQuestion(e.target.value)}
          rows={2}
          maxLength={2000}
          placeholder="Which paper reports a power density of 0.56 W cm⁻² at 823 K?"
          className="w-full rounded border border-slate-300 px-3 py-2 text-sm"
        />
        <div className="flex flex-wrap items-center gap-3">
          <label className="text-sm text-slate-700">
            Pipeline{' '}
            <select
              value={pipeline}
              onChange={(e) => setPipeline(pipelines.find((p) => p.name === e.target.value)?.name ?? pipeline)}
              className="rounded border border-slate-300 px-2 py-1 text-sm"
              aria-label="Pipeline"
            >
              <PipelineOptions pipelines={pipelines} />
            </select>
          </label>
          <PipelineHint pipelines={pipelines} chosen={pipeline} />
          {pipeline === 'aria' && (
            <label className="text-sm text-slate-700">
              Mode{' '}
              <select
                value={mode}
                onChange={(e) => setMode(modes.find(([m]) => m === e.target.value)?.[0] ?? mode)}
                className="rounded border border-slate-300 px-2 py-1 text-sm"
                aria-label="Question mode"
              >
                {modes.map(([m, text]) => (
                  <option key={m} value={m} title={text}>
                    {m}
                  </option>
                ))}
              </select>
            </label>
          )}
          <span className="text-xs text-slate-500">
            {pipeline === 'aria' ? modes.find(([m]) => m === mode)?.[1] : pipelines.find((p) => p.name === pipeline)?.description}
          </span>
          <button
            type="submit"
            disabled={ask.isPending || question.trim().length < 3}
            className="ml-auto rounded bg-teal-700 px-4 py-1.5 text-sm font-medium text-white disabled:opacity-50"
          >
            {ask.isPending ? 'Searching…' : 'Search'}
          </button>
        </div>
        {ask.isPending && (
          <p className="text-xs text-slate-500">
            The first question after a start builds the retrieval index (about half a minute for a corpus of ten thousand paragraphs); while an import runs,
            questions search the index from before it.
          </p>
        )}
      </form>
      {ask.error && (
        <p role="alert" className="rounded border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {(ask.error as Error).message}
        </p>
      )}
      {data && <ResultView data={data} />}
    </div>
  );
}

/** What the confidence shown is: the fitted model's probability with its line, the rules' coverage, or a tier's. */
function confidenceBasis(a: Response['result']['abstention']): string {
  if (a.decidedBy === 'model' && a.model)
    return `that the corpus answers it, fitted on the dev questions; not answered below ${a.model.threshold.toFixed(2)}; coverage ${a.confidence.toFixed(2)}`;
  if (a.decidedBy === 'tiers') return 'set by the reasoning tier, not calibrated';
  return 'coverage of the question, not calibrated';
}

function ResultView({ data }: { data: Response }) {
  const r = data.result;
  const top = r.papers[0];
  const graphEvidence = evidenceById(r.extras?.graphEvidence ?? []);
  const tuples = (r.extras?.graphEvidence ?? []).filter((e) => e.kind === 'tuple');
  return (
    <div className="space-y-4" data-testid="retrieval-result">
      {r.indexNotice && (
        <p role="note" data-testid="index-notice" className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {r.indexNotice}
        </p>
      )}
      {r.abstention.abstain ? (
        <div role="status" className="rounded-lg border border-amber-300 bg-amber-50 p-4">
          <p className="font-medium text-amber-900">Not in this corpus, as far as the evidence shows.</p>
          <p className="text-sm text-amber-900">
            Confidence {r.abstention.calibrated.toFixed(2)} ({confidenceBasis(r.abstention)}): {r.abstention.explanation}.{' '}
            {r.abstention.reasons.map((x) => reasonText[x] ?? x).join('; ')}.
          </p>
        </div>
      ) : (
        top && (
          <div role="status" className="rounded-lg border border-emerald-300 bg-emerald-50 p-4">
            <p className="text-sm text-emerald-900">
              Best paper (confidence {r.abstention.calibrated.toFixed(2)}, {confidenceBasis(r.abstention)}):{' '}
              {top.paperId ? (
                <Link href={`/papers/${top.paperId}`} className="font-medium underline">
                  {top.title ?? top.doi ?? 'untitled paper'}
                </Link>
              ) : (
                <span className="font-medium">{top.doi}</span>
              )}
              {top.doi && <span className="ml-2 text-xs text-emerald-800">doi:{top.doi}</span>}
            </p>
            {r.value && (
              <p className="mt-1 text-sm text-emerald-900">
                Value: <strong>{r.value.text}</strong> ({r.value.canonical.join('–')} {r.value.canonicalUnit}), from the evidence marked below.
              </p>
            )}
          </div>
        )
      )}
      {r.extras?.kind === 'design' && <DesignView design={r.extras.design} evidence={graphEvidence} />}
      {r.extras?.kind === 'aria' && <AriaView aria={r.extras.aria} evidence={graphEvidence} />}
      <section aria-label="Papers">
        <h2 className="mb-2 text-lg font-semibold">Papers</h2>
        <ol className="space-y-1 text-sm">
          {r.papers.slice(0, 5).map((p, i) => (
            <li key={`${p.paperId ?? p.doi}-${i}`} className="flex gap-2">
              <span className="w-5 text-right text-slate-500">{i + 1}.</span>
              {p.paperId ? (
                <Link href={`/papers/${p.paperId}`} className="text-teal-800 hover:underline">
                  {p.title ?? p.doi ?? 'untitled paper'}
                </Link>
              ) : (
                <span>{p.doi}</span>
              )}
              <span className="text-xs text-slate-500">score {p.score.toFixed(4)}</span>
            </li>
          ))}
        </ol>
      </section>
      {tuples.length > 0 && (
        <section aria-label="Graph tuples">
          <h2 className="mb-2 text-lg font-semibold">Graph tuples</h2>
          <ol className="space-y-1 text-sm">
            {tuples.slice(0, 12).map((t) => {
              const sentence = provenanceOf(t, 'sentence')[0]?.text;
              return (
                <li key={t.id} className="rounded border border-slate-200 bg-white px-3 py-1.5">
                  <span className="font-mono text-xs text-slate-500">{t.score.toFixed(3)}</span> <span className="font-medium">{t.text}</span>
                  {t.onPath && <span className="ml-2 rounded bg-violet-50 px-1.5 py-0.5 text-xs text-violet-900">on a path</span>}
                  {sentence && <p className="text-xs text-slate-600">“{sentence.length > 240 ? `${sentence.slice(0, 240)}…` : sentence}”</p>}
                </li>
              );
            })}
          </ol>
        </section>
      )}
      <section aria-label="Evidence">
        <h2 className="mb-2 text-lg font-semibold">Evidence</h2>
        <ol className="space-y-3">
          {r.evidence.map((e) => (
            <li key={e.id} className={`rounded-lg border bg-white p-3 ${r.value?.evidenceId === e.id ? 'border-emerald-400' : 'border-slate-200'}`}>
              <div className="mb-1 flex flex-wrap items-center gap-2 text-xs text-slate-500">
                <span className="rounded bg-slate-100 px-1.5 py-0.5">{e.kind}</span>
                {externalIdsOf(e).length > 0 && <span>{externalIdsOf(e).join(', ')}</span>}
                {e.section && <span>§ {e.section}</span>}
                <span>score {e.score.toFixed(4)}</span>
                {e.coverage !== null && <span>covers {(e.coverage * 100).toFixed(0)}% of the question</span>}
                {evidenceHref(e) && (
                  <Link href={evidenceHref(e)!} className="text-teal-800 hover:underline">
                    open paper
                  </Link>
                )}
              </div>
              <p className="text-sm leading-relaxed">{e.text.length > 900 ? `${e.text.slice(0, 900)}…` : e.text}</p>
              {[...e.matched.materials, ...e.matched.quantities, ...e.matched.properties].length > 0 && (
                <p className="mt-1 flex flex-wrap gap-1 text-xs">
                  {e.matched.materials.map((m) => (
                    <span key={m} className="rounded bg-teal-50 px-1.5 py-0.5 text-teal-900">
                      {matchedMaterialName(e.matched, m)}
                    </span>
                  ))}
                  {e.matched.quantities.map((m) => (
                    <span key={m} className="rounded bg-sky-50 px-1.5 py-0.5 text-sky-900">
                      {m}
                    </span>
                  ))}
                  {e.matched.properties.map((m) => (
                    <span key={m} className="rounded bg-violet-50 px-1.5 py-0.5 text-violet-900">
                      {propertyEntry(m)?.label ?? m}
                    </span>
                  ))}
                </p>
              )}
            </li>
          ))}
        </ol>
      </section>
      <details className="rounded-lg border border-slate-200 bg-white p-3" open>
        <summary className="cursor-pointer text-sm font-medium">
          Trace: {r.pipeline}, {r.latencyMs} ms ({data.index.paragraphs.toLocaleString('en')} paragraphs, embedder {data.index.embedder}
          {data.index.vectorsIn === 'pgvector' ? ' in pgvector' : ''}, reformulation {data.index.reformulator})
        </summary>
        <TraceList trace={r.trace} />
      </details>
    </div>
  );
}
