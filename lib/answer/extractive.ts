import { evidenceById } from '../evidence/model.ts';
import type { RetrievalResult } from '../pipelines/types.ts';
import { citablePool } from './pool.ts';
import { SHAPES } from './shapes/registry.ts';
import type { AnswerDraft } from './shapes/types.ts';
import { gateAnswer } from './gate.ts';
import type { Answer } from './types.ts';
import { verifySentences } from './verify.ts';

/** The draft of the first shape that composes one from the evidence (or the abstention), before verification. */
export function draftAnswer(result: RetrievalResult): AnswerDraft {
  for (const shape of SHAPES) {
    const d = shape.compose(result);
    if (d) return d;
  }
  return { shape: 'abstain', sentences: [{ text: 'No evidence in the corpus speaks to this question.', citations: [], flags: [] }] };
}

/** The ids a draft cites, in the order it first cites them: they lead the answer's pool. */
export const draftCitations = (draft: AnswerDraft): string[] => [...new Set(draft.sentences.flatMap((s) => s.citations))];

/**
 * The extractive answer: the draft's sentences verified against the pool they cite. The draft and pool are
 * passed in when the caller made them already (the answer made once, see answer.ts); alone, it makes both.
 */
export function extractiveAnswer(
  result: RetrievalResult,
  draft: AnswerDraft = draftAnswer(result),
  pool = citablePool(result, draftCitations(draft)),
): Omit<Answer, 'trace' | 'latencyMs'> {
  const abstain = draft.shape === 'abstain';
  const sentences = verifySentences(draft.sentences, evidenceById(pool));
  const gate = abstain ? null : gateAnswer(result, draft, sentences, pool);
  return {
    question: result.question,
    pipeline: result.pipeline,
    mode: 'extractive',
    modelId: null,
    shape: draft.shape,
    sentences,
    table: draft.table ?? null,
    disagreement: draft.disagreement ?? null,
    abstention: {
      abstain,
      reasons: abstain ? (result.abstention.reasons.length ? result.abstention.reasons : ['no-evidence']) : [],
      explanation: abstain ? result.abstention.explanation : '',
      corpusHolds: draft.corpusHolds ?? null,
      differences: abstain ? (result.abstention.differences ?? []) : [],
    },
    unverified: gate?.unverified ?? [],
    evidence: pool,
    notice: null,
    confidence: gate?.confidence ?? 0,
    gate: gate?.reading ?? null,
    tokens: null,
  };
}
