import { type Evidence, evidenceById } from '../evidence/model.ts';
import type { RetrievalResult } from '../pipelines/types.ts';
import { SHAPES } from './shapes/registry.ts';
import type { AnswerDraft } from './shapes/types.ts';
import type { Answer } from './types.ts';
import { verifySentences } from './verify.ts';

/** Graph items an answer may cite besides the ranked evidence (tuples and paths behind it). */
const GRAPH_ITEMS = 20;

/** What an answer to this result may cite: its evidence, then the graph items the pipeline brought. */
export function evidencePool(result: RetrievalResult): Evidence[] {
  return [...evidenceById([...result.evidence, ...(result.extras?.graphEvidence ?? []).slice(0, GRAPH_ITEMS)]).values()];
}

/** The extractive answer: the first shape that composes one from the evidence, its sentences verified. */
export function extractiveAnswer(result: RetrievalResult): Omit<Answer, 'trace' | 'latencyMs'> {
  const pool = evidencePool(result);
  let d: AnswerDraft | null = null;
  for (const shape of SHAPES) {
    d = shape.compose(result);
    if (d) break;
  }
  const draft: AnswerDraft = d ?? { shape: 'abstain', sentences: [{ text: 'No evidence in the corpus speaks to this question.', citations: [], flags: [] }] };
  // A design answer may cite any tuple the reasoning named (routes, cases), also beyond the pool's first graph items.
  const byId = evidenceById([...pool, ...(result.extras?.graphEvidence ?? [])]);
  const cited = [...new Set(draft.sentences.flatMap((s) => s.citations))].filter((id) => byId.has(id));
  // The answer's evidence: what it cites, in the order it is first cited, then the rest of the pool.
  const evidence = [...cited.map((id) => byId.get(id)!), ...pool.filter((e) => !cited.includes(e.id))];
  const abstain = draft.shape === 'abstain';
  return {
    question: result.question,
    pipeline: result.pipeline,
    mode: 'extractive',
    modelId: null,
    shape: draft.shape,
    sentences: verifySentences(draft.sentences, byId),
    table: draft.table ?? null,
    disagreement: draft.disagreement ?? null,
    abstention: {
      abstain,
      reasons: abstain ? (result.abstention.reasons.length ? result.abstention.reasons : ['no-evidence']) : [],
      explanation: abstain ? result.abstention.explanation : '',
      corpusHolds: draft.corpusHolds ?? null,
    },
    evidence,
    notice: null,
    confidence: abstain ? 0 : result.abstention.calibrated,
    tokens: null,
  };
}
