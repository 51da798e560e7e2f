import Link from 'next/link';
import { TierBadge } from './tier-badge';
import { formatNumber, unitText, valueText as plainValueText } from '@/lib/common/format';

const valueText = (v: { value: number | null; valueMax: number | null; unit: string | null }) => plainValueText(v, { unit: unitText });
import type { AriaResult } from '@/lib/reasoning/aria';
import type { DesignResult, EvidenceValue, RouteStep } from '@/lib/reasoning/design';
import { type Evidence, evidenceHref, evidenceId, paperOf, provenanceOf } from '@/lib/evidence/model';

/** The result's graph evidence by id: every tuple the reasoning refers to, with its provenance. */
type EvidenceIndex = Map<string, Evidence>;

const tupleItem = (tupleId: string, evidence: EvidenceIndex) => evidence.get(evidenceId('tuple', tupleId));

/** The tuple's sentence, as extracted, for tooltips and quotes. */
const tupleSentence = (tupleId: string, evidence: EvidenceIndex) => {
  const e = tupleItem(tupleId, evidence);
  return e ? (provenanceOf(e, 'sentence')[0]?.text ?? null) : null;
};

/**
 * What the aria pipeline reasoned: the tier it chose and why, the causal paths (tier 1), the analogues with
 * their similarity breakdown and the rejected ones (tier 2), and for design questions the structured
 * suggestions (inverse design) or predictions (forward) with a link to the paragraph or paper of every value.
 */
/** Where a tuple comes from, as a link to its paragraph (or paper); records have no page. */
function SourceLink({ tupleId, evidence }: { tupleId: string; evidence: EvidenceIndex }) {
  const e = tupleItem(tupleId, evidence);
  const href = e ? evidenceHref(e) : null;
  if (!e || !href) return <span className="text-xs text-slate-400">record</span>;
  const title = paperOf(e)?.title ?? null;
  const externalId = provenanceOf(e, 'paragraph')[0]?.externalId ?? null;
  return (
    <Link href={href} className="text-xs text-teal-800 hover:underline" title={title ?? undefined}>
      {externalId ?? (title ? `${title.slice(0, 40)}${title.length > 40 ? '…' : ''}` : 'paper')}
    </Link>
  );
}

function Tier({ tier, text }: { tier: number; text: string }) {
  return (
    <p className="flex flex-wrap items-center gap-2 text-sm">
      <TierBadge tier={tier} />
      <span className="text-slate-700">{text}</span>
    </p>
  );
}

function Grounded({ grounded }: { grounded: { key: string; label: string; cos: number }[] }) {
  if (grounded.length === 0) return <p className="text-xs text-slate-500">No concept of the question was found in the graph.</p>;
  return (
    <p className="flex flex-wrap gap-1 text-xs">
      <span className="text-slate-500">Grounded on:</span>
      {grounded.map((g) => (
        <span key={g.key} className="rounded bg-slate-100 px-1.5 py-0.5" title={`${g.key}, cos ${g.cos.toFixed(2)}`}>
          {g.label}
        </span>
      ))}
    </p>
  );
}

export function AriaView({ aria, evidence }: { aria: AriaResult; evidence: EvidenceIndex }) {
  return (
    <section aria-label="Reasoning" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
      <h2 className="text-lg font-semibold">Reasoning</h2>
      <Tier
        tier={aria.tier}
        text={
          aria.tier === 1
            ? 'causal paths in the graph connect the concepts of the question'
            : aria.tier === 2
              ? 'no causal path connects them; the closest analogues, ranked by Sim = 0.4·cos·(1 + 0.1·context overlap) + 0.35·F + 0.25·N'
              : aria.modelOnly
                ? 'no path and no analogue: only the model could answer'
                : 'no path and no analogue, and no model is configured: no answer'
        }
      />
      <Grounded grounded={aria.grounded} />
      {aria.paths.length > 0 && (
        <ol className="space-y-2 text-sm" aria-label="Causal paths">
          {aria.paths.slice(0, 8).map((p, i) => (
            <li key={i} className="rounded border border-violet-200 bg-violet-50 p-2">
              {p.tuples.map((t, j) => (
                <div key={t.id} className="flex flex-wrap items-baseline gap-2">
                  <span className="text-slate-500">{j === 0 ? '' : '→'}</span>
                  <span className="font-medium">{t.text}</span>
                  <SourceLink tupleId={t.id} evidence={evidence} />
                  {tupleSentence(t.id, evidence) && <span className="w-full pl-4 text-xs text-slate-600">“{tupleSentence(t.id, evidence)}”</span>}
                </div>
              ))}
            </li>
          ))}
        </ol>
      )}
      {aria.analogues.length > 0 && <AnalogueTable rows={aria.analogues} caption="Analogues" />}
      {aria.rejected.length > 0 && <AnalogueTable rows={aria.rejected} caption="Rejected candidates" />}
    </section>
  );
}

function AnalogueTable({ rows, caption }: { rows: (AriaResult['analogues'][number] & { reason?: string })[]; caption: string }) {
  return (
    <table className="w-full text-left text-xs" aria-label={caption}>
      <caption className="mb-1 text-left text-sm font-medium">{caption}</caption>
      <thead className="text-slate-500">
        <tr>
          <th className="py-1">entity</th>
          <th>cos</th>
          <th>context</th>
          <th>F</th>
          <th>N</th>
          <th>Sim</th>
          <th>stance</th>
          {rows.some((r) => r.reason) && <th>why rejected</th>}
        </tr>
      </thead>
      <tbody>
        {rows.map((a) => (
          <tr key={a.key} className="border-t border-slate-100">
            <td className="py-1 font-medium">{a.label}</td>
            <td>{a.cos.toFixed(2)}</td>
            <td>{a.contextOverlap.toFixed(2)}</td>
            <td>{a.F.toFixed(2)}</td>
            <td>{a.N.toFixed(2)}</td>
            <td className="font-medium">{a.sim.toFixed(3)}</td>
            <td>{a.stance}</td>
            {a.reason && <td>{a.reason === 'factual-conflict' ? 'conflicting concept (F ≤ 0.5)' : 'Sim below 0.6'}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const routeKindText: Record<RouteStep['kind'], string> = {
  method: 'method',
  precursor: 'from',
  condition: 'at',
  substrate: 'on',
  dopant: 'doped with',
  solvent: 'solvent',
  additive: 'additive',
};

function Route({ route, evidence }: { route: RouteStep[]; evidence: EvidenceIndex }) {
  if (route.length === 0) return <span className="text-xs text-slate-500">no synthesis route in the graph</span>;
  return (
    <span className="flex flex-wrap gap-1">
      {route.map((r) => (
        <span key={r.tupleId} className="rounded bg-sky-50 px-1.5 py-0.5 text-xs text-sky-900" title={routeSource(r.tupleId, evidence)}>
          {routeKindText[r.kind]} {r.kind === 'condition' ? `${valueText(r)}${r.step ? ` (${r.step})` : ''}` : r.label}
        </span>
      ))}
    </span>
  );
}

export function DesignView({ design, evidence }: { design: DesignResult; evidence: EvidenceIndex }) {
  const targets = design.targets.map(
    (t) =>
      `${t.label}${t.value !== null ? ` ${t.comparator === '>=' ? '≥' : t.comparator === '<=' ? '≤' : '≈'} ${formatNumber(t.value)} ${unitText(t.unit)}` : ''}`,
  );
  const conditions = [design.conditions.method, ...design.conditions.quantities.map((q) => q.text)].filter(Boolean);
  return (
    <section
      aria-label={design.mode === 'inverse' ? 'Inverse design' : 'Forward prediction'}
      className="space-y-3 rounded-lg border border-slate-200 bg-white p-4"
    >
      <h2 className="text-lg font-semibold">
        {design.mode === 'inverse' ? 'Inverse design: how to reach the target' : 'Forward prediction: what these conditions give'}
      </h2>
      <Tier tier={design.tier} text={design.explanation} />
      <p className="text-xs text-slate-600">
        {targets.length > 0 && <>Target: {targets.join('; ')}. </>}
        {conditions.length > 0 && <>Conditions: {conditions.join(', ')}.</>}
      </p>
      <Grounded grounded={design.grounded} />
      {design.suggestions.length > 0 && (
        <table className="w-full text-left text-sm" aria-label="Suggestions">
          <thead className="text-xs text-slate-500">
            <tr>
              <th className="py-1">material</th>
              <th>reported value</th>
              <th>target</th>
              <th>synthesis route</th>
            </tr>
          </thead>
          <tbody>
            {design.suggestions.map((s) => (
              <tr key={s.material.key} className="border-t border-slate-100 align-top">
                <td className="py-1.5 font-medium">{s.material.label}</td>
                <td>
                  <ValueWithSource v={s.achieved} evidence={evidence} />
                </td>
                <td className="text-xs">
                  {s.meets ? <span className="text-emerald-800">meets</span> : <span className="text-amber-800">misses (N {s.N.toFixed(2)})</span>}
                </td>
                <td>
                  {s.route.length === 0 && s.analogueRoute ? (
                    <>
                      <span className="block text-xs text-amber-900">
                        by analogy: the route of {s.analogueRoute.label} (composition cos {s.analogueRoute.cos.toFixed(2)})
                      </span>
                      <Route route={s.analogueRoute.route} evidence={evidence} />
                    </>
                  ) : (
                    <Route route={s.route} evidence={evidence} />
                  )}
                  {s.route.length > 0 && !s.routeFromSamePaper && (
                    <span className="block text-xs text-slate-500">route from other papers on this material</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {design.predictions.length > 0 && (
        <ol className="space-y-2" aria-label="Predictions">
          {design.predictions.map((p, i) => (
            <li key={`${p.property}-${p.analogue?.key ?? 'self'}-${i}`} className="rounded border border-slate-200 p-2 text-sm">
              <p>
                <span className="font-medium">{p.label}</span>:{' '}
                {p.estimate ? (
                  <strong>
                    ≈ {formatNumber(p.estimate.median)} {unitText(p.estimate.unit)}
                    {p.estimate.low !== p.estimate.high && ` (interquartile ${formatNumber(p.estimate.low)}–${formatNumber(p.estimate.high)})`}
                  </strong>
                ) : (
                  <span className="text-slate-500">no comparable values</span>
                )}{' '}
                {p.basis === 'analogue' && p.analogue && (
                  <span className="text-xs text-amber-900">
                    from analogue {p.analogue.label} (Sim {p.analogue.sim.toFixed(2)}, {p.analogue.stance})
                  </span>
                )}
              </p>
              <ul className="mt-1 space-y-0.5 text-xs text-slate-700">
                {p.cases.map((c) => (
                  <li key={c.tupleId} className="flex flex-wrap gap-2">
                    <ValueWithSource v={c} evidence={evidence} />
                    <span className="text-slate-500">conditions match {(c.conditionMatch * 100).toFixed(0)}%</span>
                    <Route route={c.conditions} evidence={evidence} />
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ol>
      )}
      {design.paths.length > 0 && (
        <div className="text-xs">
          <p className="font-medium">Causal levers in the graph</p>
          <ul>
            {design.paths.slice(0, 5).map((p, i) => (
              <li key={i}>{p.tuples.map((t) => t.text).join(' → ')}</li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

function routeSource(tupleId: string, evidence: EvidenceIndex): string {
  const e = tupleItem(tupleId, evidence);
  return (e && (provenanceOf(e, 'paragraph')[0]?.externalId ?? paperOf(e)?.title)) || 'record';
}

function ValueWithSource({ v, evidence }: { v: EvidenceValue; evidence: EvidenceIndex }) {
  return (
    <span className="inline-flex flex-wrap items-baseline gap-1" title={tupleSentence(v.tupleId, evidence) ?? undefined}>
      <span>{valueText(v)}</span>
      {v.condition && <span className="text-xs text-slate-500">at {v.condition}</span>}
      <SourceLink tupleId={v.tupleId} evidence={evidence} />
    </span>
  );
}
