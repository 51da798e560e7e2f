import Link from 'next/link';
import { notFound } from 'next/navigation';
import { NeedsRole } from '@/components/needs-role';
import { ScoreChart } from '@/components/score-chart';
import { currentViewer } from '@/app/current-viewer';
import { may } from '@/lib/services/access';
import { idParam } from '@/lib/common/params';
import type { Interval } from '@/lib/services/vocabulary';
import { campaignResultsPage } from '@/lib/services/grading';
import { adjudicateAction, judgeCampaignAction } from '../../actions';

export const dynamic = 'force-dynamic';

/** Below this many graded items a figure is shown with a warning that it rests on too few questions. */
const SMALL_SAMPLE = 5;

const f = (x: number | null | undefined, digits = 2) => (x === null || x === undefined ? '—' : x.toFixed(digits));
const ci = (i: Interval | null | undefined) => (i ? `${f(i.mean)} [${f(i.low)}, ${f(i.high)}]` : '—');

/** Results: admins at any time, the campaign's graders once it is closed (so no grader sees another's grades before). */
export default async function ResultsPage({ params }: { params: Promise<{ id: string }> }) {
  const viewer = await currentViewer();
  if (!may(viewer, 'grade')) return <NeedsRole needs="expert" what="Grading results" signedIn={!!viewer.user} />;
  const id = idParam((await params).id);
  const found = id ? await campaignResultsPage(id) : null;
  if (!found) notFound();
  const { campaign } = found;
  const admin = may(viewer, 'campaigns');
  const grader = campaign.graders.some((g) => g.userId === viewer.user?.id);
  if (!admin && !(grader && campaign.status === 'closed'))
    return <p className="text-sm text-slate-700">Results are shown to graders when the campaign is closed.</p>;
  const { stored } = found;
  if (!stored) notFound();
  const { results: r, graderNames } = stored;
  const name = (id: string) => graderNames.get(id) ?? id;
  const series = [
    ...r.rubric.criteria.map((c) => ({ key: c.id, label: c.label, max: c.max })),
    ...(r.primary === 'total' ? [{ key: 'total', label: 'Total (1–10)', max: 10 }] : []),
  ];
  if (r.rubric.pairwise) series.push({ key: 'preference', label: 'Preference (1 win, ½ tie)', max: 1 });
  const judge = found.judge;
  return (
    <div className="space-y-6">
      <div>
        <Link href={`/grading/${campaign.id}`} className="text-sm text-teal-800 hover:underline">
          ← {campaign.name}
        </Link>
        <h1 className="text-2xl font-semibold">Results</h1>
        <p className="text-sm text-slate-600">
          {r.gradedItems} of {campaign._count.items} items have submitted grades. Means over questions with 95% paired bootstrap intervals (2,000 resamples,
          seeded); only submitted grades count.
        </p>
      </div>
      {r.gradedItems < SMALL_SAMPLE && (
        <p role="note" data-testid="small-sample" className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {r.gradedItems === 0 ? 'No item has submitted grades yet.' : `Only ${r.gradedItems} item${r.gradedItems === 1 ? ' has' : 's have'} submitted grades.`}{' '}
          The means and intervals below rest on fewer than {SMALL_SAMPLE} questions: they say little about which pipeline is better
          {r.gradedItems === 1 ? ' (an interval from one question is only that question’s score)' : ''}.
        </p>
      )}
      <section className="space-y-2">
        <h2 className="text-lg font-medium">Scores per pipeline</h2>
        <table className="w-full border-collapse text-sm" aria-label="Scores">
          <thead>
            <tr className="border-b border-slate-300 text-left text-slate-600">
              <th className="py-2">Pipeline</th>
              {series.map((s) => (
                <th key={s.key}>{s.label}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {campaign.pipelines.map((p) => (
              <tr key={p} className="border-b border-slate-100" data-testid="score-row">
                <td className="py-2 font-medium">{p}</td>
                {series.map((s) => (
                  <td key={s.key}>{ci(r.scores[p]?.[s.key])}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        {r.gradedItems > 0 && <ScoreChart criteria={series} pipelines={campaign.pipelines.map((p) => ({ name: p, scores: r.scores[p] ?? {} }))} />}
      </section>
      <section className="space-y-2">
        <h2 className="text-lg font-medium">Pairwise</h2>
        <table className="w-full border-collapse text-sm" aria-label="Win rates">
          <thead>
            <tr className="border-b border-slate-300 text-left text-slate-600">
              <th className="py-2">A vs B</th>
              <th>A wins</th>
              <th>ties</th>
              <th>B wins</th>
              <th>mean difference A − B [95%]</th>
            </tr>
          </thead>
          <tbody>
            {r.winRates.map((w, i) => (
              <tr key={`${w.a}-${w.b}`} className="border-b border-slate-100">
                <td className="py-2">
                  {w.a} vs {w.b}
                </td>
                <td>{w.wins}</td>
                <td>{w.ties}</td>
                <td>{w.losses}</td>
                <td>{ci(r.differences[i]?.interval)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section className="space-y-2">
        <h2 className="text-lg font-medium">By question type ({r.primary})</h2>
        <table className="w-full border-collapse text-sm" aria-label="By question type">
          <thead>
            <tr className="border-b border-slate-300 text-left text-slate-600">
              <th className="py-2">Type</th>
              {campaign.pipelines.map((p) => (
                <th key={p}>{p}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {Object.entries(r.byType).map(([type, cells]) => (
              <tr key={type} className="border-b border-slate-100">
                <td className="py-2">{type}</td>
                {campaign.pipelines.map((p) => (
                  <td key={p}>{cells[p] ? `${f(cells[p].mean)} (n=${cells[p].n})` : '—'}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section className="space-y-2" aria-label="Agreement">
        <h2 className="text-lg font-medium">Agreement between graders</h2>
        <ul className="text-sm">
          {Object.entries(r.agreement.alpha).map(([c, a]) => (
            <li key={c} data-testid="agreement">
              {c}: Krippendorff’s α (interval{c === 'preference' ? ', nominal for preferences' : ''}) {f(a)} · Fleiss’ κ {f(r.agreement.fleiss[c])}
            </li>
          ))}
          {r.agreement.pairs.map((p) => (
            <li key={`${p.a}-${p.b}`}>
              {name(p.a)} and {name(p.b)}: {r.rubric.pairwise ? 'Cohen’s κ' : 'quadratic-weighted Cohen’s κ'} {f(p.kappa)} over {p.units} ratings
            </li>
          ))}
        </ul>
        {r.agreement.judge ? (
          <div className="text-sm" data-testid="judge-agreement">
            <p>
              Judge model {r.agreement.judge.judge} as one more rater: α with the judge {f(r.agreement.judge.alphaWithJudge)} (experts alone{' '}
              {f(r.agreement.alpha[r.primary === 'total' ? 'total' : r.primary])})
            </p>
            <ul>
              {r.agreement.judge.pairs.map((p) => (
                <li key={p.expert}>
                  judge and {name(p.expert)}: κ {f(p.kappa)} over {p.units}
                </li>
              ))}
            </ul>
          </div>
        ) : (
          <p className="text-sm text-slate-600">
            {judge ? 'The judge model has not graded this campaign yet.' : 'No judge model is configured (ASSAY_JUDGE_MODEL).'}
          </p>
        )}
        {admin && judge && (
          <form action={judgeCampaignAction}>
            <input type="hidden" name="campaign" value={campaign.id} />
            <button type="submit" className="rounded border border-slate-300 px-3 py-1 text-sm">
              Have {judge} grade every item
            </button>
          </form>
        )}
      </section>
      <section className="space-y-2" aria-label="Claims">
        <h2 className="text-lg font-medium">Citations: experts’ claim marks and the offline verifier</h2>
        <p className="text-sm" data-testid="claims">
          {r.claims.marked} claim mark{r.claims.marked === 1 ? '' : 's'}. Citation recall (claims supported by what they cite): experts{' '}
          {f(r.claims.experts.recall)}, verifier {f(r.claims.verifier.recall)}. Citation precision (cited claims not cited wrongly): experts{' '}
          {f(r.claims.experts.precision)}, verifier {f(r.claims.verifier.precision)}. Agreement verifier–experts: Cohen’s κ {f(r.claims.kappa)}.
        </p>
      </section>
      <section className="space-y-2" aria-label="Disagreements">
        <h2 className="text-lg font-medium">Disagreements ({r.disagreements.length})</h2>
        {r.disagreements.length === 0 ? (
          <p className="text-sm text-slate-600">No item where graders differ by 40% of a scale or more, or prefer different answers.</p>
        ) : (
          <form action={adjudicateAction} className="space-y-2 text-sm">
            <input type="hidden" name="campaign" value={campaign.id} />
            {r.disagreements.map((d) => (
              <label key={d.itemId} className="flex items-start gap-2" data-testid="disagreement">
                <input type="checkbox" name="item" value={d.itemId} defaultChecked disabled={!admin} className="mt-1" />
                <span>
                  Item {d.ordinal + 1}: {d.question} — {d.what}
                </span>
              </label>
            ))}
            {admin && (
              <button type="submit" className="rounded border border-slate-300 px-3 py-1">
                Send the checked items for adjudication
              </button>
            )}
          </form>
        )}
      </section>
    </div>
  );
}
