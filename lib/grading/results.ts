import type { Answer } from '../answer/types.ts';
import { cohenKappa, cohenKappaQuadratic, fleissKappa, krippendorffAlpha } from './agreement.ts';
import { type Interval, pairedBootstrap } from './bootstrap.ts';
import { type ClaimMark, type Marks, marksSchema, RUBRICS, type Rubric, type RubricId } from './rubrics.ts';

/**
 * A campaign's results from its stored grades: per pipeline and criterion the mean with a paired bootstrap
 * interval, pairwise win rates, breakdowns by question type, agreement between graders (and with the judge
 * model), the offline claim verifier against the experts' per-claim marks, and the items graders disagree on.
 * Only submitted grades count. Plain data in, plain data out: the page, the export and the CLI share it.
 */

export interface ResultsInput {
  rubric: RubricId;
  pipelines: string[];
  items: {
    id: string;
    ordinal: number;
    question: string;
    type: string | null;
    answers: { id: string; pipeline: string; answer: Pick<Answer, 'sentences'> }[];
    grades: { graderId: string | null; judge: string | null; submitted: boolean; marks: unknown }[];
  }[];
}

export interface WinRate {
  a: string;
  b: string;
  wins: number;
  ties: number;
  losses: number;
}

export interface Disagreement {
  itemId: string;
  ordinal: number;
  question: string;
  what: string;
}

export interface CampaignResults {
  rubric: Rubric;
  /** The criterion the win rates and differences use: overall, content + citation total, or preference. */
  primary: string;
  gradedItems: number;
  /** pipeline → criterion → interval (criteria plus the primary). */
  scores: Record<string, Record<string, Interval | null>>;
  /** Paired differences on the primary criterion, a minus b. */
  differences: { a: string; b: string; interval: Interval | null }[];
  winRates: WinRate[];
  /** question type → pipeline → mean primary score. */
  byType: Record<string, Record<string, { mean: number; n: number }>>;
  agreement: {
    /** criterion → Krippendorff's α (interval; nominal for preferences) among the experts. */
    alpha: Record<string, number | null>;
    /** criterion → Fleiss' κ over units rated by the most common number of experts. */
    fleiss: Record<string, number | null>;
    /** Per pair of experts: quadratic-weighted κ on the primary criterion (unweighted for preferences). */
    pairs: { a: string; b: string; kappa: number | null; units: number }[];
    /** The judge model against the experts: α with and without it, and κ against each expert. */
    judge: { judge: string; alphaWithJudge: number | null; pairs: { expert: string; kappa: number | null; units: number }[] } | null;
  };
  /** ALCE-style citation recall and precision from the experts' per-claim marks and from the offline verifier. */
  claims: {
    marked: number;
    experts: { recall: number | null; precision: number | null };
    verifier: { recall: number | null; precision: number | null };
    /** Cohen's κ between the verifier and the experts on the sentences experts marked. */
    kappa: number | null;
  };
  disagreements: Disagreement[];
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : null);

/** The offline verifier's verdict as a per-claim mark. */
export function verifierMark(s: Answer['sentences'][number]): ClaimMark {
  if (s.flags.includes('citation-removed')) return 'wrong-citation';
  return s.verdict === 'supported' ? 'supported' : 'unsupported';
}

/** ALCE-style: recall = share of claims their citations support; precision = share of cited claims not cited wrongly. */
function alce(marks: { mark: ClaimMark; cited: boolean }[]) {
  if (!marks.length) return { recall: null, precision: null };
  const cited = marks.filter((m) => m.cited);
  return {
    recall: marks.filter((m) => m.mark === 'supported').length / marks.length,
    precision: cited.length ? cited.filter((m) => m.mark !== 'wrong-citation').length / cited.length : null,
  };
}

export function campaignResults(input: ResultsInput, opts: { seed?: number; resamples?: number } = {}): CampaignResults {
  const rubric = RUBRICS[input.rubric];
  const primary = rubric.pairwise ? 'preference' : rubric.id === 'content-citation' ? 'total' : 'overall';
  const criteria = rubric.pairwise ? [] : rubric.criteria.map((c) => c.id);
  const expertGrades = (item: ResultsInput['items'][number]) =>
    item.grades.filter((g) => g.submitted && g.graderId).map((g) => ({ grader: g.graderId as string, marks: marksSchema.parse(g.marks) }));
  const judgeGrades = (item: ResultsInput['items'][number]) =>
    item.grades.filter((g) => g.submitted && g.judge).map((g) => ({ grader: `judge:${g.judge}`, marks: marksSchema.parse(g.marks) }));
  const scoreOf = (m: Marks, answerId: string, criterion: string): number | null => {
    if (criterion === 'total') {
      const c = m.scores[answerId]?.content;
      const k = m.scores[answerId]?.citation;
      return c === undefined || k === undefined ? null : c + k;
    }
    return m.scores[answerId]?.[criterion] ?? null;
  };
  /** A pairwise grade as a score per answer: 1 preferred, 0.5 tie, 0 not preferred. */
  const preferenceScore = (m: Marks, answerId: string): number | null =>
    !m.preference ? null : m.preference.winner === 'tie' ? 0.5 : m.preference.winner === answerId ? 1 : 0;
  const criterionScore = (m: Marks, answerId: string, criterion: string) =>
    criterion === 'preference' ? preferenceScore(m, answerId) : scoreOf(m, answerId, criterion);

  const series = [...criteria, ...(criteria.includes(primary) ? [] : [primary])];
  const graded = input.items.filter((i) => expertGrades(i).length > 0);
  // Per item and pipeline: the experts' mean for each series.
  const perItem = graded.map((item) => {
    const grades = expertGrades(item);
    const out: Record<string, Record<string, number | null>> = {};
    for (const p of input.pipelines) {
      const ans = item.answers.find((a) => a.pipeline === p);
      out[p] = {};
      for (const s of series) {
        const xs = ans ? grades.map((g) => criterionScore(g.marks, ans.id, s)).filter((x): x is number => x !== null) : [];
        out[p][s] = mean(xs);
      }
    }
    return { item, out };
  });

  const scores: CampaignResults['scores'] = {};
  const columns = input.pipelines.flatMap((p) => series.map((s) => ({ p, s })));
  const pairs = input.pipelines.flatMap((a, i) => input.pipelines.slice(i + 1).map((b) => ({ a, b })));
  const table = perItem.map(({ out }) => [
    ...columns.map(({ p, s }) => out[p][s]),
    ...pairs.map(({ a, b }) => (out[a][primary] !== null && out[b][primary] !== null ? (out[a][primary] as number) - (out[b][primary] as number) : null)),
  ]);
  const intervals = table.length ? pairedBootstrap(table, { seed: opts.seed ?? 1, resamples: opts.resamples ?? 2000 }) : [];
  columns.forEach(({ p, s }, i) => {
    scores[p] ??= {};
    scores[p][s] = intervals[i] ?? null;
  });
  const differences = pairs.map(({ a, b }, i) => ({ a, b, interval: intervals[columns.length + i] ?? null }));

  const winRates = pairs.map(({ a, b }) => {
    const w = { a, b, wins: 0, ties: 0, losses: 0 };
    for (const { out } of perItem) {
      const x = out[a][primary];
      const y = out[b][primary];
      if (x === null || y === null) continue;
      if (x > y) w.wins++;
      else if (x < y) w.losses++;
      else w.ties++;
    }
    return w;
  });

  const byType: CampaignResults['byType'] = {};
  for (const { item, out } of perItem) {
    const t = item.type ?? 'untyped';
    for (const p of input.pipelines) {
      const v = out[p][primary];
      if (v === null) continue;
      byType[t] ??= {};
      const cell = (byType[t][p] ??= { mean: 0, n: 0 });
      cell.mean = (cell.mean * cell.n + v) / (cell.n + 1);
      cell.n++;
    }
  }

  // Agreement. Units: (item, answer) for scored rubrics, the item for preferences (as which pipeline won, or tie).
  const unitRatings = (criterion: string, withJudge: boolean) => {
    const units: Map<string, number | string>[] = [];
    for (const item of graded) {
      const grades = [...expertGrades(item), ...(withJudge ? judgeGrades(item) : [])];
      if (criterion === 'preference') {
        const u = new Map<string, string>();
        for (const g of grades) {
          const w = g.marks.preference?.winner;
          if (w) u.set(g.grader, w === 'tie' ? 'tie' : (item.answers.find((a) => a.id === w)?.pipeline ?? w));
        }
        units.push(u);
      } else
        for (const ans of item.answers) {
          const u = new Map<string, number>();
          for (const g of grades) {
            const v = scoreOf(g.marks, ans.id, criterion);
            if (v !== null) u.set(g.grader, v);
          }
          units.push(u);
        }
    }
    return units;
  };
  const alphaOf = (criterion: string, withJudge: boolean) => {
    const units = unitRatings(criterion, withJudge);
    if (criterion === 'preference') {
      const codes = new Map<string, number>();
      const code = (v: string) => {
        if (!codes.has(v)) codes.set(v, codes.size);
        return codes.get(v) as number;
      };
      return krippendorffAlpha(
        units.map((u) => [...u.values()].map((v) => code(String(v)))),
        'nominal',
      );
    }
    return krippendorffAlpha(units.map((u) => [...u.values()] as number[]));
  };
  const agreementCriteria = rubric.pairwise ? ['preference'] : series;
  const alpha: Record<string, number | null> = {};
  const fleiss: Record<string, number | null> = {};
  for (const c of agreementCriteria) {
    alpha[c] = alphaOf(c, false);
    const units = unitRatings(c, false).filter((u) => u.size >= 2);
    const sizes = new Map<number, number>();
    for (const u of units) sizes.set(u.size, (sizes.get(u.size) ?? 0) + 1);
    const m = [...sizes].sort((x, y) => y[1] - x[1])[0]?.[0];
    const same = units.filter((u) => u.size === m);
    const categories = [...new Set(same.flatMap((u) => [...u.values()].map(String)))];
    fleiss[c] =
      same.length >= 2 && categories.length
        ? fleissKappa(same.map((u) => categories.map((cat) => [...u.values()].filter((v) => String(v) === cat).length)))
        : null;
  }
  const pairKappa = (ra: string, rb: string, criterion: string) => {
    const xs: (number | string)[] = [];
    const ys: (number | string)[] = [];
    for (const u of unitRatings(criterion, true))
      if (u.has(ra) && u.has(rb)) {
        xs.push(u.get(ra) as number | string);
        ys.push(u.get(rb) as number | string);
      }
    if (criterion === 'preference') return { kappa: cohenKappa(xs.map(String), ys.map(String)), units: xs.length };
    const max = criterion === 'total' ? 10 : (rubric.criteria.find((c) => c.id === criterion)?.max ?? 10);
    return { kappa: cohenKappaQuadratic(xs as number[], ys as number[], 0, max), units: xs.length };
  };
  const experts = [...new Set(input.items.flatMap((i) => expertGrades(i).map((g) => g.grader)))].sort();
  const expertPairs = experts.flatMap((a, i) => experts.slice(i + 1).map((b) => ({ a, b, ...pairKappa(a, b, primary) })));
  const judges = [...new Set(input.items.flatMap((i) => judgeGrades(i).map((g) => g.grader)))];
  const judge = judges.length
    ? {
        judge: judges[0].slice('judge:'.length),
        alphaWithJudge: alphaOf(primary, true),
        pairs: experts.map((e) => ({ expert: e, ...pairKappa(judges[0], e, primary) })),
      }
    : null;

  // Per-claim marks: the experts' against the offline verifier's.
  const expertMarks: { mark: ClaimMark; cited: boolean }[] = [];
  const verifierMarks: { mark: ClaimMark; cited: boolean }[] = [];
  const pairsForKappa: [string, string][] = [];
  for (const item of graded)
    for (const g of expertGrades(item))
      for (const [answerId, marks] of Object.entries(g.marks.claims)) {
        const ans = item.answers.find((a) => a.id === answerId);
        if (!ans) continue;
        for (const [index, mark] of Object.entries(marks)) {
          const sentence = ans.answer.sentences[Number(index)];
          if (!sentence) continue;
          const cited = sentence.citations.length > 0;
          expertMarks.push({ mark, cited });
          const v = verifierMark(sentence);
          verifierMarks.push({ mark: v, cited });
          pairsForKappa.push([mark, v]);
        }
      }

  const disagreements: Disagreement[] = [];
  for (const item of graded) {
    const grades = expertGrades(item);
    if (grades.length < 2) continue;
    if (rubric.pairwise) {
      const winners = new Set(grades.map((g) => g.marks.preference?.winner).filter((w) => w && w !== 'tie'));
      if (winners.size > 1)
        disagreements.push({ itemId: item.id, ordinal: item.ordinal, question: item.question, what: 'graders preferred different answers' });
      continue;
    }
    for (const c of rubric.criteria) {
      const spread = Math.ceil((c.max - c.min) * 0.4);
      const worst = item.answers
        .map((a) => {
          const xs = grades.map((g) => g.marks.scores[a.id]?.[c.id]).filter((x): x is number => x !== undefined);
          return xs.length >= 2 ? Math.max(...xs) - Math.min(...xs) : 0;
        })
        .reduce((x, y) => Math.max(x, y), 0);
      if (worst >= spread) {
        disagreements.push({ itemId: item.id, ordinal: item.ordinal, question: item.question, what: `${c.label} differs by ${worst} (of ${c.max})` });
        break;
      }
    }
  }

  return {
    rubric,
    primary,
    gradedItems: graded.length,
    scores,
    differences,
    winRates,
    byType,
    agreement: { alpha, fleiss, pairs: expertPairs, judge },
    claims: {
      marked: expertMarks.length,
      experts: alce(expertMarks),
      verifier: alce(verifierMarks),
      kappa: cohenKappa(
        pairsForKappa.map((p) => p[0]),
        pairsForKappa.map((p) => p[1]),
      ),
    },
    disagreements,
  };
}
