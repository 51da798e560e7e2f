'use client';

import Link from 'next/link';
import { type ReactNode, useState } from 'react';
import { AnswerGraph } from './answer-graph';
import { AnswerTrace } from './answer-trace';
import { clampWindow } from './clamp';
import { ProvenancePanel } from './provenance-panel';
import { reasonText } from './reason-text';
import { labelsById } from '@/lib/answer/pool';
import { isFrame } from '@/lib/answer/shapes/types';
import type { Answer, AnswerSentence, ValueRow, Verdict } from '@/lib/answer/types';
import { formatNumber } from '@/lib/common/format';
import type { PaperNotice } from '@/lib/scholarly/metadata';
import { type Evidence, evidenceHref, externalIdsOf, matchedMaterialName, paperOf, provenanceOf } from '@/lib/evidence/model';
import { readableText } from '@/lib/structure/terms';
import { propertyEntry } from '@/lib/structure/properties';

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

/**
 * `annotate` adds a note to an evidence item (the compare screen says which other pipelines cite its paper).
 * `blind` (the grading screen) hides what could reveal the pipeline or sway a grader: the mode and pipeline line,
 * the verifier's verdicts and the trace; `claimExtra` adds controls after each sentence (per-claim marks).
 */
export function AnswerView({
  answer,
  annotate,
  blind = false,
  claimExtra,
  notices = {},
  offer,
}: {
  answer: Answer;
  annotate?: (e: Evidence) => ReactNode;
  blind?: boolean;
  claimExtra?: (index: number) => ReactNode;
  /** Retraction and correction notices of the cited papers, by paper id (lib/scholarly/metadata.ts). */
  notices?: Record<string, PaperNotice>;
  /** Shown under an abstention: "look for papers" (the answer page passes it). */
  offer?: ReactNode;
}) {
  const label = labelsById(answer.evidence);
  // Papers under a notice that a sentence cites: said above the answer, so nobody reads it without knowing.
  const cited = new Set(answer.sentences.flatMap((s) => s.citations));
  const flagged = groupByPaper(answer.evidence.filter((e) => cited.has(e.id))).filter((g) => notices[g.key]);
  // An abstention shows what the corpus holds nearest the question, but nothing of it answers.
  const closestOnly = answer.abstention.abstain;
  const { shown, folded } = splitCited(answer, blind || closestOnly);
  // The item whose provenance panel is open (a citation chip or an evidence item opens it).
  const [open, setOpen] = useState<string | null>(null);
  const opened = open ? answer.evidence.find((e) => e.id === open) : undefined;
  return (
    <div className="space-y-4" data-testid="answer" data-shape={answer.shape} data-mode={answer.mode}>
      {!blind && (
        <p className="text-xs text-slate-600" data-testid="answer-mode">
          {modeText(answer)} · pipeline {answer.pipeline} · {answer.latencyMs} ms
          {usageText(answer)}
          {!answer.abstention.abstain && (
            <>
              {' · '}
              <span data-testid="answer-confidence" title={confidenceMeaning(answer)}>
                confidence {answer.confidence.toFixed(2)}
              </span>
            </>
          )}
        </p>
      )}
      {answer.scope && (
        <p className="text-xs text-slate-600" data-testid="answer-scope">
          Only papers matching the filters: {answer.scope}
        </p>
      )}
      {answer.notice && (
        <p role="status" className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {answer.notice}
        </p>
      )}
      {answer.abstention.abstain && (
        <div role="status" className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          <p className="font-medium">Not answered from this corpus.</p>
          <p>{answer.abstention.reasons.map((r) => reasonText[r] ?? r).join('; ')}.</p>
          {(answer.abstention.differences?.length ?? 0) > 0 && (
            <ul className="mt-1 list-disc pl-5" data-testid="abstention-differences" aria-label="What differs from the closest evidence">
              {answer.abstention.differences!.map((d) => (
                <li key={`${d.facet}-${d.asked}`}>
                  {d.facet}: you asked about <b>{d.asked}</b>
                  {d.stated ? (
                    <>
                      ; the closest paper states <b>{d.stated}</b>
                    </>
                  ) : (
                    '; the closest paper states nothing of it'
                  )}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {!answer.abstention.abstain && (answer.unverified?.length ?? 0) > 0 && (
        <div role="note" className="rounded-lg border border-slate-300 bg-slate-50 p-3 text-sm text-slate-800" data-testid="answer-unverified">
          <p className="font-medium">Confidence {answer.confidence.toFixed(2)}; part of the question was not checked against the paper —</p>
          <ul className="list-disc pl-5">
            {answer.unverified!.map((u) => (
              <li key={`${u.facet}-${u.asked}`}>
                {u.facet} <b>{u.asked}</b>: {u.note}
              </li>
            ))}
          </ul>
        </div>
      )}
      {offer}
      <ol className="space-y-2" aria-label="Answer sentences">
        {answer.sentences.map((s, i) => (
          <ClaimLine
            key={`${i}-${s.text.slice(0, 20)}`}
            sentence={s}
            label={label}
            onOpen={setOpen}
            // Verdicts belong to claims: not to framing lines, and not to the closest evidence of an abstention.
            hideVerdict={blind || closestOnly || isFrame(s)}
            extra={claimExtra?.(i)}
          />
        ))}
      </ol>
      {answer.table && <ValuesTable rows={answer.table} label={label} />}
      {flagged.length > 0 && (
        <ul
          role="alert"
          data-testid="answer-notices"
          className={`space-y-1 rounded-lg border p-3 text-sm ${flagged.some((g) => notices[g.key].retracted) ? 'border-red-300 bg-red-50 text-red-900' : 'border-amber-300 bg-amber-50 text-amber-900'}`}
        >
          {flagged.map((g) => (
            <li key={g.key}>
              Cites {g.items.map((e) => label.get(e.id)).join(', ')} from “{g.title}”, which was {notices[g.key].says}.
            </li>
          ))}
        </ul>
      )}
      {answer.disagreement && <p className="text-sm text-amber-900">{answer.disagreement}</p>}
      <section aria-label="Evidence" className="space-y-3">
        <h2 className="text-lg font-semibold">{closestOnly ? 'Closest evidence — not an answer' : 'Evidence'}</h2>
        {groupByPaper(shown).map((group) => (
          <div key={group.key} className="space-y-2" data-testid="evidence-paper">
            <h3 className="text-sm font-medium text-slate-800">
              {group.title}
              {notices[group.key] ? (
                <span
                  className={`ml-2 rounded px-1.5 text-xs font-semibold ${notices[group.key].retracted ? 'bg-red-100 text-red-900' : 'bg-amber-100 text-amber-900'}`}
                  data-testid="paper-notice-badge"
                  title={notices[group.key].says}
                >
                  {notices[group.key].retracted ? 'retracted' : 'notice'}: {notices[group.key].says}
                </span>
              ) : null}
            </h3>
            {group.items.map((e) => (
              <EvidenceItem key={e.id} e={e} label={label.get(e.id) ?? ''} onOpen={() => setOpen(e.id)} note={annotate?.(e)} blind={blind} />
            ))}
          </div>
        ))}
        {folded.length > 0 && (
          <details className="rounded-lg border border-slate-200 p-3" data-testid="evidence-uncited">
            <summary className="cursor-pointer text-sm text-slate-700">
              {folded.length} more {folded.length === 1 ? 'item' : 'items'} retrieved for the question but not cited by the answer
            </summary>
            <div className="mt-2 space-y-2">
              {folded.map((e) => (
                <EvidenceItem key={e.id} e={e} label={label.get(e.id) ?? ''} onOpen={() => setOpen(e.id)} note={annotate?.(e)} blind={blind} />
              ))}
            </div>
          </details>
        )}
      </section>
      <AnswerGraph evidence={answer.evidence} cited={answer.sentences.flatMap((s) => s.citations)} name="answer-graph" />
      {!blind && <AnswerTrace trace={answer.trace} />}
      {opened && <ProvenancePanel key={opened.id} evidence={opened} label={label.get(opened.id) ?? ''} onClose={() => setOpen(null)} />}
    </div>
  );
}

/**
 * One sentence of an answer with its citation chips and its verdict (and the judge's, when one ran). Chips open the
 * provenance panel when `onOpen` is given; while an answer is still streaming they are labels only.
 */
export function ClaimLine({
  sentence: s,
  label,
  onOpen,
  hideVerdict = false,
  extra,
}: {
  sentence: AnswerSentence;
  label: Map<string, string>;
  onOpen?: (id: string) => void;
  hideVerdict?: boolean;
  extra?: ReactNode;
}) {
  return (
    <li className="flex flex-wrap items-baseline gap-2 text-[15px] leading-relaxed" data-testid="claim" data-verdict={s.verdict}>
      <span>{s.text}</span>
      {s.citations.map((c) =>
        onOpen ? (
          <button
            key={c}
            type="button"
            onClick={() => onOpen(c)}
            aria-label={`${label.get(c)}: show its provenance`}
            className="rounded bg-teal-50 px-1.5 text-xs font-medium text-teal-900 hover:underline focus:outline focus:outline-2 focus:outline-teal-700"
          >
            {label.get(c)}
          </button>
        ) : (
          <span key={c} className="rounded bg-teal-50 px-1.5 text-xs font-medium text-teal-900">
            {label.get(c) ?? c}
          </span>
        ),
      )}
      {!hideVerdict && (
        <span
          className={`rounded px-1.5 text-xs ${verdictStyle[s.verdict]}`}
          title={s.check ? `values found: ${s.check.quantities.found.join(', ') || '—'}; missing: ${s.check.quantities.missing.join(', ') || '—'}` : undefined}
        >
          {s.verdict}
        </span>
      )}
      {s.judge !== undefined && (
        <span className={`rounded px-1.5 text-xs ${s.judge ? verdictStyle[s.judge] : 'bg-slate-100 text-slate-600'}`} data-testid="judge-verdict">
          judge: {s.judge ?? 'no verdict'}
        </span>
      )}
      {s.flags.includes('citation-removed') && (
        <span className="rounded bg-red-50 px-1.5 text-xs text-red-800">a citation to evidence not retrieved was removed</span>
      )}
      {extra}
    </li>
  );
}

/** US dollars, to two significant digits below a cent. */
const dollars = (x: number) => `$${x >= 0.01 ? x.toFixed(2) : x.toPrecision(2)}`;

/** The model's usage: tokens, and what they cost when a price is configured. */
/**
 * What the confidence beside an answer is the chance of: with the answer gate's fit (lib/answer/gate), that the
 * answer is right, whatever its shape; without it, a value answer's is its value's when the embedder's family has a
 * value fit (the trace's value-confidence step), else every answer's is its paper's.
 */
function confidenceMeaning(answer: Pick<Answer, 'trace' | 'gate'>): string {
  if (answer.gate?.fitted)
    return 'The chance that this answer is right (its paper the one that answers the question, its value the one the corpus gives), fitted on answers of every shape to the dev questions, the question bank and their rewrites; lower when the cited evidence does not state what was asked';
  return answer.trace.some((t) => t.step === 'value-confidence')
    ? 'The chance that the value stated is the one the corpus gives for what was asked, fitted on value answers to the dev questions'
    : 'The chance that the answer comes from the paper that answers the question, fitted on the dev questions';
}

function usageText(answer: Answer): string {
  if (!answer.tokens) return '';
  const tokens = ` · ${answer.tokens.prompt} prompt + ${answer.tokens.completion} completion tokens`;
  return answer.costUsd != null ? `${tokens} · ${dollars(answer.costUsd)}` : `${tokens} · cost not known (no price configured)`;
}

/**
 * What the evidence list shows at once: the items the answer cites. The rest of what was retrieved is folded away
 * below them (a synthesis answer cites a few of dozens of recipes, a value answer one sentence of eight papers); a
 * refusal's closest evidence and a grader's blind view show everything.
 */
function splitCited(answer: Pick<Answer, 'evidence' | 'sentences'>, showAll: boolean): { shown: Evidence[]; folded: Evidence[] } {
  const cited = new Set(answer.sentences.flatMap((s) => s.citations));
  if (showAll || cited.size === 0) return { shown: answer.evidence, folded: [] };
  return { shown: answer.evidence.filter((e) => cited.has(e.id)), folded: answer.evidence.filter((e) => !cited.has(e.id)) };
}

/** A paper as the evidence list names it: its title as a reader should see it, else its DOI, else its source's id. */
function paperTitle(e: Evidence): string {
  const p = paperOf(e);
  if (p?.title) return readableText(p.title);
  if (p?.doi) return `doi:${p.doi}`;
  if (e.kind === 'record') return 'Structured record';
  const external = externalIdsOf(e)[0];
  return external ? `Untitled paper ${external.split(':')[0]}` : 'Untitled paper';
}

/** Evidence grouped by paper, papers in the order their first item is numbered. */
function groupByPaper(items: Evidence[]): { key: string; title: string; items: Evidence[] }[] {
  const groups = new Map<string, { key: string; title: string; items: Evidence[] }>();
  for (const e of items) {
    const p = paperOf(e);
    const key = p?.paperId ?? p?.doi ?? e.paperId ?? e.doi ?? `item:${e.id}`;
    const group = groups.get(key) ?? {
      key,
      title: paperTitle(e),
      items: [],
    };
    group.items.push(e);
    groups.set(key, group);
  }
  return [...groups.values()];
}

function EvidenceItem({ e, label, onOpen, note, blind = false }: { e: Evidence; label: string; onOpen: () => void; note?: ReactNode; blind?: boolean }) {
  const href = evidenceHref(e);
  const sentence = provenanceOf(e, 'sentence')[0];
  const facets = [
    ...e.matched.materials.map((m) => matchedMaterialName(e.matched, m)),
    ...e.matched.quantities,
    ...e.matched.properties.map((p) => propertyEntry(p)?.label ?? p),
  ];
  return (
    <div id={label} className="rounded-lg border border-slate-200 bg-white p-3 text-sm">
      <p className="mb-1 flex flex-wrap items-center gap-2 text-xs text-slate-500">
        <span className="font-semibold text-teal-900">{label}</span>
        <span className="rounded bg-slate-100 px-1.5">{e.kind}</span>
        {/* Retrieval scores differ in scale between pipelines: a blind grader must not see them. */}
        {!blind && <span title="retrieval score">score {formatNumber(e.score, 3)}</span>}
        {externalIdsOf(e)[0] && <span>{externalIdsOf(e)[0]}</span>}
        {e.section && <span>{e.section}</span>}
        {href && (
          <Link href={href} className="text-teal-800 hover:underline">
            open paper
          </Link>
        )}
        <button type="button" onClick={onOpen} className="text-teal-800 hover:underline">
          provenance
        </button>
        {note}
      </p>
      {facets.length > 0 && (
        <p className="mb-1 flex flex-wrap gap-1 text-xs" data-testid="matched-facets">
          <span className="text-slate-500">matches</span>
          {facets.map((f) => (
            <span key={f} className="rounded bg-yellow-100 px-1 text-slate-800">
              {f}
            </span>
          ))}
        </p>
      )}
      {sentence && e.kind === 'paragraph' ? (
        <ClampedParagraph text={e.text} mark={sentence} />
      ) : (
        <>
          <ClampedParagraph text={e.text} />
          {/* A tuple's sentence span indexes its paragraph, so it is quoted rather than marked. */}
          {sentence && <p className="mt-1 text-xs text-slate-600">“{sentence.text}”</p>}
        </>
      )}
    </div>
  );
}

/**
 * A paragraph, long ones clamped to the marked sentence with some context either side (or to their opening), with
 * a button that shows all of it. Text only, never HTML.
 */
function ClampedParagraph({ text, mark }: { text: string; mark?: { start: number; end: number } }) {
  const [all, setAll] = useState(false);
  const shown = clampWindow(text.length, mark);
  const { from, to } = shown;
  const clamped = !all && shown.clamped;
  const [a, b] = clamped ? [from, to] : [0, text.length];
  return (
    <p>
      {a > 0 && '… '}
      {mark ? (
        <>
          {text.slice(a, mark.start)}
          <mark className="bg-yellow-100">{text.slice(mark.start, mark.end)}</mark>
          {text.slice(mark.end, b)}
        </>
      ) : (
        text.slice(a, b)
      )}
      {b < text.length && ' …'}
      {(clamped || all) && (
        <button type="button" onClick={() => setAll(!all)} className="ml-1 text-xs text-teal-800 hover:underline">
          {all ? 'show less' : `show all (${text.length} characters)`}
        </button>
      )}
    </p>
  );
}

type SortKey = 'value' | 'material' | 'paper';

/** The cross-paper values, sortable by value (in canonical units), material or paper. */
function ValuesTable({ rows, label }: { rows: ValueRow[]; label: Map<string, string> }) {
  const [sort, setSort] = useState<{ key: SortKey; dir: 1 | -1 } | null>(null);
  const sorted = sort
    ? [...rows].sort((a, b) => {
        const d =
          sort.key === 'value'
            ? (a.canonical[0] ?? 0) - (b.canonical[0] ?? 0)
            : (sort.key === 'material' ? (a.material ?? '') : (a.paperTitle ?? '')).localeCompare(
                sort.key === 'material' ? (b.material ?? '') : (b.paperTitle ?? ''),
              );
        return d * sort.dir;
      })
    : rows;
  const header = (key: SortKey, text: string) => (
    <th aria-sort={sort?.key === key ? (sort.dir === 1 ? 'ascending' : 'descending') : 'none'} className="py-1">
      <button type="button" className="hover:underline" onClick={() => setSort({ key, dir: sort?.key === key ? (-sort.dir as 1 | -1) : 1 })}>
        {text} {sort?.key === key ? (sort.dir === 1 ? '▲' : '▼') : ''}
      </button>
    </th>
  );
  return (
    <table className="w-full text-left text-sm" aria-label="Reported values">
      <thead className="text-xs text-slate-500">
        <tr>
          {header('value', 'value')}
          {header('material', 'material')}
          <th>conditions</th>
          {header('paper', 'paper')}
        </tr>
      </thead>
      <tbody>
        {sorted.map((r) => (
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
  );
}
