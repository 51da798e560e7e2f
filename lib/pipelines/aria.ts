import { round } from '../common/trace.ts';
import { ariaReason } from '../reasoning/aria.ts';
import { type DesignMode, designReason, detectDesignMode } from '../reasoning/design.ts';
import type { Abstention } from '../retrieval/gate/abstention.ts';
import { evidenceFromTuples, pathEvidence, type ScoredTuple } from '../retrieval/evidence.ts';
import type { GraphIndex } from '../retrieval/graph-index.ts';
import { loadGraph, tupleItems } from './graph-steps.ts';
import { definePipeline, type PipelineContext, type PipelineOutput } from './types.ts';

/**
 * Method C's tiered reasoning over the graph: tier 1 direct causal paths between the question's concepts, tier 2
 * analogues ranked by Sim, tier 3 model-only or abstain. Forward-prediction and inverse-design questions (detected
 * or forced by `mode`) get structured suggestions instead. The tier decides abstention.
 */
export const aria = definePipeline({
  name: 'aria',
  label: 'Cause-and-effect reasoning',
  line: 'Explains why: causal paths in the knowledge graph, else analogous materials, else it says it cannot tell.',
  description: 'Tiered causal reasoning: direct causal paths, else analogues (Sim with F and N), else model-only or abstain',
  defaults: { k: 5 },
  async run(ctx) {
    const g = await loadGraph(ctx);
    const designMode = ctx.mode === 'forward' || ctx.mode === 'inverse' ? ctx.mode : ctx.mode === 'auto' ? detectDesignMode(ctx.analysis) : null;
    if (designMode) return design(ctx, g, designMode);
    const a = await ctx.step(
      'aria',
      () => ariaReason(g, ctx.analysis, (t) => ctx.index.nameEmbedder.embed(t), { modelConfigured: ctx.modelConfigured }),
      (r) => ({
        tier: r.tier,
        grounded: r.grounded.map((x) => x.label),
        paths: r.paths.slice(0, 5).map((p) => p.tuples.map((t) => t.text).join(' → ')),
        analogues: r.analogues.map((x) => ({
          label: x.label,
          sim: round(x.sim, 3),
          cos: round(x.cos, 3),
          contextOverlap: round(x.contextOverlap, 2),
          F: x.F,
          N: round(x.N, 3),
          stance: x.stance,
        })),
        rejected: r.rejected.map((x) => ({ label: x.label, reason: x.reason, sim: round(x.sim, 3), F: x.F, N: round(x.N, 3) })),
      }),
    );
    const hits: ScoredTuple[] = [];
    for (const p of a.paths) for (const t of p.tuples) hits.push({ tuple: g.tuples.get(t.id)!, score: 1 - 0.1 * p.tuples.length, onPath: true });
    for (const x of a.analogues) for (const id of x.tupleIds) hits.push({ tuple: g.tuples.get(id)!, score: x.sim, onPath: false });
    const { evidence, tuples } = evidenceFromTuples(ctx, hits);
    const paths = a.paths.map((p) =>
      pathEvidence(
        ctx.index,
        p.tuples.map((t) => g.tuples.get(t.id)!),
        1 - 0.1 * p.tuples.length,
      ),
    );
    const abstention: Abstention | undefined =
      a.tier === 3
        ? {
            abstain: true,
            confidence: 0,
            calibrated: 0,
            decidedBy: 'tiers',
            reasons: ['no-evidence'],
            explanation: a.modelOnly
              ? 'no causal path or analogue in the graph: only the model could answer (tier 3)'
              : 'no causal path or analogue in the graph, and no model is configured (tier 3)',
          }
        : undefined;
    return { evidence, abstention, extras: { kind: 'aria', aria: a, graphEvidence: [...paths, ...tupleItems(ctx, tuples)] } };
  },
});

/** Forward prediction / inverse design: suggestions and predictions, their tuples as evidence (best first). */
async function design(ctx: PipelineContext, g: GraphIndex, mode: DesignMode): Promise<PipelineOutput> {
  const d = await ctx.step(
    `design-${mode}`,
    () => designReason(g, ctx.analysis, mode, (t) => ctx.index.nameEmbedder.embed(t), { modelConfigured: ctx.modelConfigured }),
    (r) => ({
      tier: r.tier,
      grounded: r.grounded.map((x) => x.label),
      targets: r.targets.map((t) => `${t.label} ${t.comparator ?? ''} ${t.value ?? ''} ${t.unit ?? ''}`.trim()),
      conditions: { method: r.conditions.method, quantities: r.conditions.quantities.map((q) => q.text) },
      suggestions: r.suggestions.map((x) => ({
        material: x.material.label,
        value: x.achieved.value,
        unit: x.achieved.unit,
        meets: x.meets,
        N: round(x.N, 3),
        route: x.route.length,
      })),
      predictions: r.predictions.map((p) => ({ property: p.label, basis: p.basis, estimate: p.estimate, cases: p.cases.length })),
    }),
  );
  const hits: ScoredTuple[] = [];
  const add = (id: string, score: number, onPath = false) => hits.push({ tuple: g.tuples.get(id)!, score, onPath });
  d.suggestions.forEach((s, rank) => {
    const score = 1 - 0.05 * rank;
    add(s.achieved.tupleId, score);
    for (const r of s.route) add(r.tupleId, score - 0.01);
  });
  for (const p of d.predictions) {
    const weight = p.basis === 'material' ? 1 : (p.analogue?.sim ?? 0.5);
    for (const c of p.cases) add(c.tupleId, weight * (0.5 + 0.5 * c.conditionMatch));
  }
  for (const p of d.paths) for (const t of p.tuples) add(t.id, 0.5, true);
  const { evidence, tuples } = evidenceFromTuples(ctx, hits);
  // Borrowed routes and prediction conditions are referenced by the design but scored by nothing above.
  const referenced = new Map(tuples.map((t) => [t.tuple.id, t]));
  const reference = (id: string) => {
    if (!referenced.has(id)) referenced.set(id, { tuple: g.tuples.get(id)!, score: 0, onPath: false });
  };
  for (const s of d.suggestions) for (const r of s.analogueRoute?.route ?? []) reference(r.tupleId);
  for (const p of d.predictions) for (const c of p.cases) for (const r of c.conditions) reference(r.tupleId);
  const abstention: Abstention =
    d.tier === 3
      ? {
          abstain: true,
          confidence: 0,
          calibrated: 0,
          decidedBy: 'tiers',
          reasons: ['no-evidence'],
          explanation: `${d.explanation}: ${d.modelOnly ? 'only the model could answer (tier 3)' : 'no model is configured (tier 3)'}`,
        }
      : {
          abstain: false,
          confidence: d.tier === 1 ? 1 : 0.6,
          // The tier decides here, not the fitted model: its confidence is stated as it is, not calibrated.
          calibrated: d.tier === 1 ? 1 : 0.6,
          decidedBy: 'tiers',
          reasons: [],
          explanation: `tier ${d.tier}: ${d.explanation}`,
        };
  return { evidence, abstention, extras: { kind: 'design', design: d, graphEvidence: tupleItems(ctx, [...referenced.values()]) } };
}
