'use client';

import Link from 'next/link';
import { useState } from 'react';
import { ProvenancePanel } from './provenance-panel';
import { reasonText } from './reason-text';
import type { Answer, Verdict } from '@/lib/answer/types';
import { evidenceHref, externalIdsOf, paperOf, provenanceOf } from '@/lib/evidence/model';

const verdictStyle: Record<Verdict, string> = {
  supported: 'bg-emerald-100 text-emerald-900',
  partial: 'bg-amber-100 text-amber-900',
  unsupported: 'bg-red-100 text-red-900',
  uncited: 'bg-slate-200 text-slate-700',
};

/**
 * A stored answer: each sentence with its verdict and its citation labels (linking to the evidence below), the
 * values table, the abstention with its reasons and what the corpus holds, and the evidence with where it
 * comes from. Paper text is rendered as text, never as HTML.
 */
function modeText(answer: Answer): string {
  if (answer.mode === 'extractive') return 'Extractive answer: composed from the evidence, no language model';
  if (answer.mode === 'model-only') return `Baseline: ${answer.modelId} alone, no retrieval`;
  if (answer.mode === 'naive-kg') return `Baseline: ${answer.modelId} with the graph tuples pasted in, no tiers`;
  return `Written by ${answer.modelId} from the evidence`;
}

export function AnswerView({ answer }: { answer: Answer }) {
  const label = new Map(answer.evidence.map((e, i) => [e.id, `E${i + 1}`]));
  // The item whose provenance panel is open (a citation chip or an evidence item opens it).
  const [open, setOpen] = useState<string | null>(null);
  const opened = open ? answer.evidence.find((e) => e.id === open) : undefined;
  return (
    <div className="space-y-4" data-testid="answer" data-shape={answer.shape} data-mode={answer.mode}>
      <p className="text-xs text-slate-600" data-testid="answer-mode">
        {modeText(answer)} · pipeline {answer.pipeline} · {answer.latencyMs} ms
        {answer.tokens ? ` · ${answer.tokens.prompt} prompt + ${answer.tokens.completion} completion tokens` : ''}
      </p>
      {answer.notice && (
        <p role="status" className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {answer.notice}
        </p>
      )}
      {answer.abstention.abstain && (
        <div role="status" className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          <p className="font-medium">Not answered from this corpus.</p>
          <p>{answer.abstention.reasons.map((r) => reasonText[r] ?? r).join('; ')}.</p>
        </div>
      )}
      <ol className="space-y-2" aria-label="Answer sentences">
        {answer.sentences.map((s, i) => (
          <li key={`${i}-${s.text.slice(0, 20)}`} className="flex flex-wrap items-baseline gap-2 text-[15px] leading-relaxed">
            <span>{s.text}</span>
            {s.citations.map((c) => (
              <button
                key={c}
                type="button"
                onClick={() => setOpen(c)}
                aria-label={`${label.get(c)}: show its provenance`}
                className="rounded bg-teal-50 px-1.5 text-xs font-medium text-teal-900 hover:underline focus:outline focus:outline-2 focus:outline-teal-700"
              >
                {label.get(c)}
              </button>
            ))}
            <span
              className={`rounded px-1.5 text-xs ${verdictStyle[s.verdict]}`}
              title={
                s.check ? `values found: ${s.check.quantities.found.join(', ') || '—'}; missing: ${s.check.quantities.missing.join(', ') || '—'}` : undefined
              }
            >
              {s.verdict}
            </span>
            {s.judge !== undefined && (
              <span className={`rounded px-1.5 text-xs ${s.judge ? verdictStyle[s.judge] : 'bg-slate-100 text-slate-600'}`} data-testid="judge-verdict">
                judge: {s.judge ?? 'no verdict'}
              </span>
            )}
            {s.flags.includes('citation-removed') && (
              <span className="rounded bg-red-50 px-1.5 text-xs text-red-800">a citation to evidence not retrieved was removed</span>
            )}
          </li>
        ))}
      </ol>
      {answer.table && (
        <table className="w-full text-left text-sm" aria-label="Reported values">
          <thead className="text-xs text-slate-500">
            <tr>
              <th className="py-1">value</th>
              <th>material</th>
              <th>conditions</th>
              <th>paper</th>
            </tr>
          </thead>
          <tbody>
            {answer.table.map((r) => (
              <tr key={`${r.evidenceId}-${r.value}-${r.conditions.join()}`} className="border-t border-slate-100">
                <td className="py-1 font-medium">{r.value}</td>
                <td>{r.material ?? '—'}</td>
                <td>{r.conditions.join(', ') || '—'}</td>
                <td>
                  <a href={`#${label.get(r.evidenceId) ?? ''}`} className="text-teal-800 hover:underline">
                    {label.get(r.evidenceId)}
                  </a>{' '}
                  {r.paperTitle}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {answer.disagreement && <p className="text-sm text-amber-900">{answer.disagreement}</p>}
      <section aria-label="Evidence" className="space-y-2">
        <h2 className="text-lg font-semibold">Evidence</h2>
        {answer.evidence.map((e, i) => {
          const href = evidenceHref(e);
          const sentence = provenanceOf(e, 'sentence')[0];
          return (
            <div key={e.id} id={`E${i + 1}`} className="rounded-lg border border-slate-200 bg-white p-3 text-sm">
              <p className="mb-1 flex flex-wrap gap-2 text-xs text-slate-500">
                <span className="font-semibold text-teal-900">E{i + 1}</span>
                <span className="rounded bg-slate-100 px-1.5">{e.kind}</span>
                {externalIdsOf(e)[0] && <span>{externalIdsOf(e)[0]}</span>}
                <span>{paperOf(e)?.title ?? paperOf(e)?.doi ?? ''}</span>
                {href && (
                  <Link href={href} className="text-teal-800 hover:underline">
                    open paper
                  </Link>
                )}
                <button type="button" onClick={() => setOpen(e.id)} className="text-teal-800 hover:underline">
                  provenance
                </button>
              </p>
              {sentence && e.kind === 'paragraph' ? (
                <p>
                  {e.text.slice(0, sentence.start)}
                  <mark className="bg-yellow-100">{e.text.slice(sentence.start, sentence.end)}</mark>
                  {e.text.slice(sentence.end)}
                </p>
              ) : (
                <>
                  <p>{e.text}</p>
                  {/* A tuple's sentence span indexes its paragraph, so it is quoted rather than marked. */}
                  {sentence && <p className="mt-1 text-xs text-slate-600">“{sentence.text}”</p>}
                </>
              )}
            </div>
          );
        })}
      </section>
      {opened && <ProvenancePanel key={opened.id} evidence={opened} label={label.get(opened.id) ?? ''} onClose={() => setOpen(null)} />}
    </div>
  );
}
