'use client';

import type { ProvenanceQuery } from '@/app/api/provenance/contract';
import { callApi } from './api-client';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useEffect, useRef, useState } from 'react';
import type { ProvenanceDetails, ProvenanceTable } from '@/lib/answer/provenance';
import { type Evidence, paperOf, paragraphHref, provenanceOf, tupleIdsOf } from '@/lib/evidence/model';
import { GraphView } from './graph-view';
import { ReadableData } from './readable-data';
import { RecordReadingView } from './record-reading';
import { TupleItem } from './tuple-item';

const TABS = ['Source', 'Record', 'Tuples', 'Graph'] as const;
type Tab = (typeof TABS)[number];

/** The provenance API's query for one item: the ids its provenance names. */
export function provenanceQuery(e: Evidence): ProvenanceQuery {
  const paragraph = provenanceOf(e, 'paragraph')[0];
  const sentence = provenanceOf(e, 'sentence')[0];
  return {
    paper: paperOf(e)?.paperId ?? e.paperId ?? undefined,
    paragraph: paragraph?.paragraphId,
    // A tuple's sentence span indexes its paragraph too, so it marks the sentence there as well.
    sentence: sentence && paragraph && sentence.paragraphId === paragraph.paragraphId ? `${sentence.start}-${sentence.end}` : undefined,
    cell: provenanceOf(e, 'cell')[0]?.address,
    record: provenanceOf(e, 'record')[0]?.recordId,
    tuple: tupleIdsOf(e).slice(0, 50),
  };
}

/**
 * The side panel a citation or an evidence item opens: the item's paper and paragraph in context with the cited
 * sentence marked (Source), its structured record as a tree (Record), its graph tuples with their source
 * sentences (Tuples) and the subgraph they form, explorable (Graph). Escape closes it; the tabs follow the WAI-ARIA tabs pattern (arrow keys move between them).
 */
export function ProvenancePanel({ evidence, label, onClose }: { evidence: Evidence; label: string; onClose: () => void }) {
  const [tab, setTab] = useState<Tab>(evidence.kind === 'tuple' || evidence.kind === 'path' ? 'Tuples' : evidence.kind === 'record' ? 'Record' : 'Source');
  const query = provenanceQuery(evidence);
  const details = useQuery({
    queryKey: ['provenance', query],
    queryFn: async (): Promise<ProvenanceDetails> => {
      return callApi('GET /api/provenance', { query }, { failure: 'provenance failed' });
    },
  });
  const panel = useRef<HTMLElement>(null);
  useEffect(() => {
    panel.current?.focus();
  }, []);
  const tabButtons = useRef<(HTMLButtonElement | null)[]>([]);
  const moveTab = (delta: number) => {
    const next = TABS[(TABS.indexOf(tab) + delta + TABS.length) % TABS.length];
    setTab(next);
    tabButtons.current[TABS.indexOf(next)]?.focus();
  };

  return (
    <aside
      ref={panel}
      tabIndex={-1}
      aria-label={`Provenance of ${label}`}
      className="fixed inset-y-0 right-0 z-20 flex w-full max-w-xl flex-col border-l border-slate-200 bg-white shadow-xl outline-none"
      onKeyDown={(e) => {
        if (e.key === 'Escape') onClose();
      }}
    >
      <div className="flex items-center justify-between border-b border-slate-200 px-4 py-3">
        <h2 className="text-base font-semibold">
          {label} · {evidence.kind}
        </h2>
        <button type="button" onClick={onClose} className="rounded border border-slate-300 px-2 py-0.5 text-sm" aria-label="Close provenance">
          Close
        </button>
      </div>
      <div role="tablist" aria-label="Provenance" className="flex gap-1 border-b border-slate-200 px-4">
        {TABS.map((t, i) => (
          <button
            key={t}
            ref={(el) => {
              tabButtons.current[i] = el;
            }}
            type="button"
            role="tab"
            id={`prov-tab-${t}`}
            aria-selected={tab === t}
            aria-controls={`prov-panel-${t}`}
            tabIndex={tab === t ? 0 : -1}
            onClick={() => setTab(t)}
            onKeyDown={(e) => {
              if (e.key === 'ArrowRight') moveTab(1);
              if (e.key === 'ArrowLeft') moveTab(-1);
            }}
            className={`-mb-px border-b-2 px-3 py-2 text-sm ${tab === t ? 'border-teal-700 font-medium text-teal-900' : 'border-transparent text-slate-600'}`}
          >
            {t}
            {t === 'Tuples' && details.data ? ` (${details.data.graph.tuples.length})` : ''}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`prov-panel-${tab}`} aria-labelledby={`prov-tab-${tab}`} className="flex-1 overflow-y-auto px-4 py-3 text-sm">
        {details.isPending && <p role="status">Loading…</p>}
        {details.isError && (
          <div role="alert" className="space-y-2 text-red-800">
            <p>{details.error.message}</p>
            <button type="button" className="rounded border border-red-300 px-2 py-0.5" onClick={() => details.refetch()}>
              Retry
            </button>
          </div>
        )}
        {details.data && tab === 'Source' && <SourceTab d={details.data} />}
        {details.data && tab === 'Record' && <RecordTab d={details.data} />}
        {details.data && tab === 'Tuples' && <TuplesTab d={details.data} />}
        {details.data && tab === 'Graph' && (
          <GraphView initial={details.data.graph} name={`provenance-${label}`} path={evidence.kind === 'path' ? tupleIdsOf(evidence) : undefined} />
        )}
      </div>
    </aside>
  );
}

function SourceTab({ d }: { d: ProvenanceDetails }) {
  if (!d.paper) return <p className="text-slate-600">This item names no paper.</p>;
  const p = d.paragraph;
  return (
    <div className="space-y-3" data-testid="provenance-source">
      <div>
        <p className="font-medium">{d.paper.title ?? 'Untitled paper'}</p>
        <p className="text-xs text-slate-600">
          {[d.paper.authors.slice(0, 6).join(', ') + (d.paper.authors.length > 6 ? ' et al.' : ''), d.paper.journal, d.paper.year].filter(Boolean).join(' · ')}
        </p>
        <p className="text-xs text-slate-600">
          {d.paper.doi && (
            <a href={`https://doi.org/${d.paper.doi}`} className="text-teal-800 hover:underline" rel="noreferrer noopener" target="_blank">
              doi:{d.paper.doi}
            </a>
          )}
          {d.paper.license && ` · licence ${d.paper.license}`} · {d.paper.source}
        </p>
      </div>
      {p ? (
        <div className="space-y-2">
          <p className="text-xs text-slate-500">
            {p.section ?? 'no section'}
            {p.role ? ` · ${p.role}` : ''} · paragraph {p.ordinal + 1}
          </p>
          {p.table ? (
            <SourceTable table={p.table} />
          ) : (
            <>
              {p.before && <p className="text-slate-500">{p.before.text}</p>}
              <p className="rounded bg-slate-50 p-2" data-testid="provenance-paragraph">
                {p.sentence ? (
                  <>
                    {p.text.slice(0, p.sentence.start)}
                    <mark className="bg-yellow-100">{p.text.slice(p.sentence.start, p.sentence.end)}</mark>
                    {p.text.slice(p.sentence.end)}
                  </>
                ) : (
                  p.text
                )}
              </p>
              {p.after && <p className="text-slate-500">{p.after.text}</p>}
            </>
          )}
          <Link href={paragraphHref(d.paper.id, p.ordinal)} className="text-teal-800 hover:underline">
            Open paper at this paragraph
          </Link>
        </div>
      ) : (
        <Link href={`/papers/${d.paper.id}`} className="text-teal-800 hover:underline">
          Open paper
        </Link>
      )}
    </div>
  );
}

/** A table row's paragraph shown as its table: the cited row highlighted, the cited cell marked and named. */
function SourceTable({ table }: { table: ProvenanceTable }) {
  return (
    <figure className="space-y-1" data-testid="provenance-table">
      <figcaption className="text-xs text-slate-600">
        <span className="font-medium">{table.label ?? 'Table'}</span> {table.caption}
      </figcaption>
      <div className="max-h-96 overflow-auto rounded border border-slate-200">
        <table className="min-w-full text-xs">
          <thead className="bg-slate-100">
            <tr>
              {table.columns.map((c, i) => (
                <th key={i} scope="col" className={`px-2 py-1 text-left font-medium ${i === table.column ? 'bg-yellow-100' : ''}`}>
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.map((row, r) => (
              <tr key={r} className={r === table.row ? 'bg-yellow-50' : ''} aria-current={r === table.row ? 'true' : undefined}>
                {row.map((value, c) =>
                  r === table.row && c === table.column ? (
                    <td key={c} className="px-2 py-1">
                      <mark className="rounded bg-yellow-300 px-1 font-semibold" data-testid="provenance-cell">
                        {value}
                      </mark>
                    </td>
                  ) : (
                    <td key={c} className="px-2 py-1">
                      {value}
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="text-xs text-slate-600">
        Row {table.row + 1}
        {table.address ? (
          <>
            , column {table.column! + 1} (“{table.columns[table.column!]}”): cell <code>{table.address}</code>
          </>
        ) : null}
      </p>
    </figure>
  );
}

function RecordTab({ d }: { d: ProvenanceDetails }) {
  if (!d.record) return <p className="text-slate-600">No structured record for this item's paper.</p>;
  const { reading } = d.record;
  return (
    <div className="space-y-2" data-testid="provenance-record">
      <p className="font-medium">
        {d.record.title}
        {reading.source && <span className="ml-2 text-xs font-normal text-slate-500">{reading.source}</span>}
      </p>
      <RecordReadingView reading={reading} />
      <details className="text-xs">
        <summary className="cursor-pointer select-none text-slate-600">All fields of the record</summary>
        <ReadableData value={d.record.value} name="record" />
      </details>
    </div>
  );
}

function TuplesTab({ d }: { d: ProvenanceDetails }) {
  if (d.graph.tuples.length === 0) return <p className="text-slate-600">No graph tuples were extracted from this item.</p>;
  const linked = d.graph.nodes.filter((n) => d.links[n.id]);
  return (
    <div className="space-y-2">
      <ul className="space-y-2" data-testid="provenance-tuples">
        {d.graph.tuples.map((t) => (
          <li key={t.id} className={`rounded border p-2 ${d.conflicts?.[t.id] ? 'border-amber-300 bg-amber-50' : 'border-slate-200'}`}>
            <TupleItem t={t} />
            {d.conflicts?.[t.id] && (
              <p className="mt-1 text-xs text-amber-900" data-testid="tuple-conflict">
                Flagged when its paper was imported from an online search: it {d.conflicts[t.id]}.
              </p>
            )}
          </li>
        ))}
      </ul>
      {linked.length > 0 && (
        <div className="text-xs text-slate-600" data-testid="provenance-links">
          <p className="font-medium text-slate-700">Linked to Wikidata</p>
          <ul>
            {linked.map((n) => (
              <li key={n.id}>
                {n.label} →{' '}
                <a href={`https://www.wikidata.org/wiki/${d.links[n.id].qid}`} className="text-teal-800 underline" rel="noreferrer noopener" target="_blank">
                  {d.links[n.id].qid}
                </a>{' '}
                {d.links[n.id].label}
                {d.links[n.id].description ? ` — ${d.links[n.id].description}` : ''}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
