import type { Evidence } from '../../evidence/model.ts';
import { findTechniques } from '../../structure/techniques.ts';
import { formatCelsius, formatHours } from '../../synthesis/recipe.ts';
import type { Procedure, Spread, StepSummary, Tally } from '../../synthesis/summary.ts';
import { bestSentenceOf, paperName } from './text.ts';
import { type AnswerShapeComposer, type DraftSentence, draft, frame } from './types.ts';

/**
 * How a material is made, from the recipe catalogue: how many recipes of it the records hold, the usual precursors,
 * the usual order of operations, each step's temperature, time and atmosphere (median and range) and typical recipes
 * in full, each line citing the records it was counted from; corpus paragraphs describing the same synthesis after
 * them. A method the records do not hold for the material is a refusal that says which methods they do hold.
 */
export const synthesisShape: AnswerShapeComposer = {
  name: 'synthesis',
  compose(result) {
    const answer = result.recipes;
    if (!answer) return null;
    const { ask, summary, held } = answer;
    const heldText = held.map((h) => `${h.count} ${h.name}`).join(', ');
    if (!summary) {
      const corpusHolds = `The records hold ${heldText} recipe${held.reduce((n, h) => n + h.count, 0) === 1 ? '' : 's'} for ${ask.name}, none by ${ask.method}.`;
      return {
        shape: 'abstain',
        sentences: [
          draft(`The corpus does not support an answer to this question: no ${ask.method} recipe for ${ask.name} is in the records.`, []),
          draft(corpusHolds, held.flatMap((h) => h.recordIds.slice(0, 2)).map(recordRef)),
        ],
        corpusHolds,
      };
    }
    const method = ask.method ? `${methodWord(held, ask.method)} ` : '';
    const others = summary.variants.slice(0, 3).map((v) => v.name);
    const variantCount = summary.total - summary.exact;
    // The figures are the material's own; its variants are counted apart, and stand in only when it has none.
    const variants =
      summary.basis === 'variants'
        ? `; none is of ${ask.name} itself: the figures below are from its variants (${others.join(', ')})`
        : variantCount
          ? `, and ${variantCount} of variants such as ${others.join(', ')}, not counted below`
          : '';
    const sentences: DraftSentence[] = [
      frame(
        `The records hold ${summary.basis === 'own' ? summary.exact : summary.total} ${method}recipe${(summary.basis === 'own' ? summary.exact : summary.total) === 1 ? '' : 's'} for ${ask.name} from ${summary.papers} paper${summary.papers === 1 ? '' : 's'}${variants}${!ask.method && held.length > 1 ? `; by method: ${heldText}` : ''}.`,
        [],
      ),
    ];
    // Precursors the question names: the figures are of the recipes starting from them, or say that none does (and
    // the answer then answers half of what was asked).
    const from = answer.startingFrom;
    const names = from ? listed(from.names) : '';
    if (from)
      sentences.push(
        frame(
          from.recipes
            ? `${from.recipes} of the ${from.of} recipe${from.of === 1 ? '' : 's'} start${from.recipes === 1 ? 's' : ''} from ${names}; the figures below are theirs.`
            : `None of the ${from.of} recipe${from.of === 1 ? '' : 's'} starts from ${names}; the figures below are of every recipe.`,
          [],
        ),
      );
    const procedure = procedureSentence(summary.procedure, summary.counted);
    if (procedure && !ask.papers) sentences.push(procedure);
    if (ask.papers) sentences.push(...paperList(answer.evidence));
    const steps = summary.steps.map((s) => stepSentence(s, summary.counted)).filter((s): s is DraftSentence => !!s);
    // A question about a step's temperature or time is answered by its steps first.
    if (ask.focus) sentences.push(...steps);
    const precursors = summary.precursors.slice(0, 6);
    if (precursors.length)
      sentences.push(draft(`Usual precursors: ${precursors.map((p) => `${p.name} (${countOf(p, summary.counted)})`).join(', ')}.`, cover(precursors)));
    // An order most recipes do not share is no "usual" order.
    if (summary.sequence && summary.sequence.count >= Math.max(3, summary.counted / 5))
      sentences.push(
        draft(
          `The most common order of operations is ${summary.sequence.name} (${countOf(summary.sequence, summary.counted)}).`,
          summary.sequence.recordIds.slice(0, 3).map(recordRef),
        ),
      );
    if (!ask.focus) sentences.push(...steps);
    if (summary.relabelled)
      sentences.push(
        frame(
          `${summary.relabelled} of these recipe${summary.relabelled === 1 ? ' is' : 's are'} labelled with another route in the records; ${summary.relabelled === 1 ? 'its' : 'their'} steps describe this one, and ${summary.relabelled === 1 ? 'it is' : 'they are'} counted under it.`,
          [],
        ),
      );
    if (summary.dropped.values)
      sentences.push(
        frame(
          `Left out as impossible: ${summary.dropped.values} step value${summary.dropped.values === 1 ? '' : 's'} of ${summary.dropped.recipes} recipe${summary.dropped.recipes === 1 ? '' : 's'} (such as ${summary.dropped.examples.join('; ')}).`,
          [],
        ),
      );
    for (const [i, r] of summary.typical.entries()) {
      const item = answer.evidence.find((e) => e.id === recordRef(r.id));
      if (item) sentences.push(draft(`${i === 0 ? 'A typical recipe' : 'Another'} (${paperName(item)}): ${item.text}`, [item.id]));
    }
    for (const p of describingParagraphs(result.evidence, ask.keys, ask.method).slice(0, 2))
      sentences.push(draft(`${paperName(p)} describes it in the corpus: ${bestSentenceOf(p)}`, [p.id]));
    return { shape: 'synthesis', sentences, ...(from && !from.recipes ? { answered: 0.5, unmet: `made from ${names}` } : {}) };
  },
};

/** "A", "A and B", "A, B and C". */
const listed = (names: readonly string[]) => (names.length < 2 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`);

/**
 * The procedure a chemist could follow, opening the answer: the usual precursors, how they are mixed, and the firing
 * that forms the phase (temperature, time, atmosphere), each a figure some recipe states.
 */
function procedureSentence(p: Procedure | null, counted: number): DraftSentence | null {
  if (!p || (!p.precursors.length && p.temperatureC === null)) return null;
  const names = p.precursors.map((x) => x.name);
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : names[0];
  const firing = [
    p.temperatureC !== null ? `at ${formatCelsius(p.temperatureC)}` : '',
    p.hours !== null ? `for ${formatHours(p.hours)}` : '',
    p.atmosphere ? `in ${p.atmosphere}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const basis = p.sharing ? `${p.sharing} of ${counted} recipes use exactly these precursors` : `the most used precursors of ${counted} recipes`;
  const mix = list ? `start from ${list}${p.mixing ? ` (${p.mixing})` : ''}` : '';
  const fire = firing ? `fire ${firing}${p.word ? ` (${p.word})` : ''}` : '';
  return draft(`Procedure (${basis}): ${[mix, fire].filter(Boolean).join(', then ')}.`, p.recordIds.map(recordRef));
}

/** Papers listed by name in an answer to "which papers …"; the rest are counted. */
const PAPERS_LISTED = 20;

/**
 * "Which papers made it": every paper the summarised recipes come from, most recipes first, each citing one of its
 * records; past `PAPERS_LISTED`, how many more.
 */
function paperList(evidence: readonly Evidence[]): DraftSentence[] {
  const byPaper = new Map<string, Evidence[]>();
  for (const e of evidence) {
    const key = e.paperId ?? e.doi ?? e.id;
    byPaper.set(key, [...(byPaper.get(key) ?? []), e]);
  }
  // Papers that made the material itself before those that made only a variant of it; then by their recipes.
  const exact = (items: Evidence[]) => (items.some((e) => e.matched.materials.length > 0) ? 1 : 0);
  const papers = [...byPaper.values()].sort((a, b) => exact(b) - exact(a) || b.length - a.length);
  // Each line says what its record states (the material, its route and precursors: the recipe's head), so it is checked.
  const head = (e: Evidence) => e.text.split(':')[0].trim();
  const lines = papers
    .slice(0, PAPERS_LISTED)
    .map((items) =>
      draft(`${paperName(items[0])}: ${head(items[0])}${items.length > 1 ? `, and ${items.length - 1} more recipe${items.length === 2 ? '' : 's'}` : ''}.`, [
        items[0].id,
      ]),
    );
  const more = papers.length - PAPERS_LISTED;
  return more > 0 ? [...lines, frame(`And ${more} more paper${more === 1 ? '' : 's'} in the records.`, [])] : lines;
}

const recordRef = (id: string): string => `record:${id}`;
const countOf = (t: Tally, total: number): string => `${t.count} of ${total}`;

function methodWord(held: Tally[], method: string): string {
  return held.find((h) => h.name.replace(/ /g, '-') === method || method.startsWith(h.name))?.name ?? method;
}

/** Fewest records that together name every item listed (a line cites what it counts from, not all of it). */
function cover(items: Tally[]): string[] {
  const cited: string[] = [];
  let left = items.filter((t) => !t.recordIds.some((id) => cited.includes(id)));
  while (left.length && cited.length < 6) {
    const counts = new Map<string, number>();
    for (const t of left) for (const id of t.recordIds) counts.set(id, (counts.get(id) ?? 0) + 1);
    const best = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0][0];
    cited.push(best);
    left = left.filter((t) => !t.recordIds.includes(best));
  }
  return cited.map(recordRef);
}

function spreadText(s: Spread, format: (v: number) => string, total: number): string {
  if (s.min === s.max) return `${format(s.median)} (${s.recipes} of ${total})`;
  const middle = s.n >= 4 && s.q1 !== s.q3 ? `, half of them ${format(s.q1)} to ${format(s.q3)}` : '';
  return `median ${format(s.median)}${middle}, all ${format(s.min)} to ${format(s.max)} (${s.recipes} of ${total})`;
}

function stepSentence(s: StepSummary, total: number): DraftSentence | null {
  const parts: string[] = [];
  const cited = new Set<string>();
  if (s.temperatureC) {
    parts.push(`temperature ${spreadText(s.temperatureC, formatCelsius, total)}`);
    for (const id of Object.values(s.temperatureC.at)) cited.add(id);
  }
  if (s.hours) {
    parts.push(`time ${spreadText(s.hours, formatHours, total)}`);
    for (const id of Object.values(s.hours.at)) cited.add(id);
  }
  if (!parts.length) return null;
  const atmospheres = s.atmospheres.slice(0, 3);
  if (atmospheres.length) {
    parts.push(`atmosphere ${atmospheres.map((a) => `${a.name} (${a.count})`).join(', ')}`);
    for (const id of cover(atmospheres)) cited.add(id.slice('record:'.length));
  }
  const words = s.words
    .slice(0, 3)
    .map((w) => w.name)
    .join(', ');
  const label = `${s.label.charAt(0).toUpperCase()}${s.label.slice(1)}${words ? ` (${words})` : ''}`;
  return draft(`${label}: ${parts.join('; ')}.`, [...cited].map(recordRef));
}

/**
 * Paragraphs among the evidence that name the material and say how it was made (by the method asked, when one is):
 * they join the records.
 */
function describingParagraphs(evidence: Evidence[], keys: string[], method: string | null): Evidence[] {
  return evidence.filter(
    (e) =>
      e.kind === 'paragraph' &&
      e.matched.materials.some((m) => keys.includes(m)) &&
      (method ? findTechniques(e.text).includes(method) : /\b(?:synthesi[sz]ed|prepared|calcined|sintered|annealed|precursors?)\b/i.test(e.text)),
  );
}
