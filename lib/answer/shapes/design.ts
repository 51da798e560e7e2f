import { formatNumber, valueText as plainValueText } from '../../common/format.ts';
import { evidenceId, paperOf } from '../../evidence/model.ts';
import type { ValueRow } from '../types.ts';
import type { AnswerShapeComposer, DraftSentence } from './types.ts';
import { draft } from './types.ts';

const TIER = { 1: 'Tier 1 (direct evidence)', 2: 'Tier 2 (by analogy)', 3: 'Tier 3 (nothing in the graph)' } as const;
const valueText = (v: { value: number | null; valueMax: number | null; unit: string | null }) => plainValueText(v, { none: 'a value' });
const tuple = (id: string) => evidenceId('tuple', id);

/**
 * Tiered reasoning over the graph (aria) in sentences: design suggestions with their route, predictions with
 * their cases, or the causal paths and analogues of an explain question, each with its tier and its tuples.
 */
export const designShape: AnswerShapeComposer = {
  name: 'design',
  compose(result) {
    const x = result.extras;
    if (x?.kind === 'design') {
      const d = x.design;
      const sentences: DraftSentence[] = [draft(`${TIER[d.tier]}: ${d.explanation}.`, [])];
      for (const s of d.suggestions.slice(0, 5)) {
        const route = (s.route.length ? s.route : (s.analogueRoute?.route ?? [])).slice(0, 6);
        const how = route.length
          ? `; route: ${route.map((r) => (r.kind === 'condition' ? `${r.step ?? 'step'} ${valueText(r)}` : `${r.kind} ${r.label}`)).join(', ')}`
          : '';
        const borrowed = !s.route.length && s.analogueRoute ? ` (route of the analogue ${s.analogueRoute.label})` : '';
        sentences.push(
          draft(
            `${s.material.label} reaches ${valueText(s.achieved)}${s.meets ? ', meeting the target' : `, short of the target (N ${s.N.toFixed(2)})`}${how}${borrowed}.`,
            [tuple(s.achieved.tupleId), ...route.map((r) => tuple(r.tupleId))],
          ),
        );
      }
      for (const p of d.predictions.slice(0, 3)) {
        if (!p.estimate) continue;
        const from =
          p.basis === 'analogue' && p.analogue ? ` from the analogue ${p.analogue.label} (Sim ${p.analogue.sim.toFixed(2)}, ${p.analogue.stance})` : '';
        sentences.push(
          draft(
            `Expected ${p.label}: about ${formatNumber(p.estimate.median)} ${p.estimate.unit ?? ''} (interquartile ${formatNumber(p.estimate.low)}–${formatNumber(p.estimate.high)})${from}.`,
            p.cases.slice(0, 5).map((c) => tuple(c.tupleId)),
          ),
        );
      }
      // The suggestions as a table too: material, value, the conditions of its route, the paper that states it.
      const byId = new Map(x.graphEvidence.map((e) => [e.id, e]));
      const table: ValueRow[] = d.suggestions.slice(0, 5).map((s) => {
        const stating = byId.get(tuple(s.achieved.tupleId));
        const route = s.route.length ? s.route : (s.analogueRoute?.route ?? []);
        return {
          material: s.material.label,
          value: valueText(s.achieved),
          canonical: [s.achieved.value, s.achieved.valueMax].filter((v): v is number => v !== null),
          canonicalUnit: s.achieved.unit ?? '',
          conditions: [
            ...(s.achieved.condition ? [s.achieved.condition] : []),
            ...route.filter((r) => r.kind === 'condition').map((r) => `${r.step ?? 'step'} ${valueText(r)}`),
          ],
          paperId: s.achieved.paperId,
          paperTitle: stating ? (paperOf(stating)?.title ?? null) : null,
          evidenceId: tuple(s.achieved.tupleId),
        };
      });
      return { shape: 'design', sentences, table: table.length ? table : undefined };
    }
    if (x?.kind === 'aria' && x.aria.tier !== 3) {
      const a = x.aria;
      const sentences: DraftSentence[] = [draft(`${TIER[a.tier]}.`, [])];
      for (const p of a.paths.slice(0, 3))
        sentences.push(draft(`${p.tuples.map((t) => t.text).join(', then ')}.`, [evidenceId('path', p.tuples.map((t) => t.id).join('>'))]));
      for (const an of a.analogues.slice(0, 3))
        sentences.push(draft(`By analogy with ${an.label} (Sim ${an.sim.toFixed(2)}, ${an.stance}).`, an.tupleIds.slice(0, 3).map(tuple)));
      return { shape: 'design', sentences };
    }
    return null;
  },
};
