import { type Evidence, evidenceById } from '../evidence/model.ts';
import type { UnverifiedFacet } from '../retrieval/gate/facet-verdicts.ts';
import type { RetrievalResult } from '../pipelines/types.ts';
import { type AnswerDraft, draftConfidence, isFrame } from './shapes/types.ts';
import type { AnswerSentence, GateReading } from './types.ts';
import { verifySentences } from './verify.ts';
import { answerConfidence, answerConfidenceSignals } from '../retrieval/gate/answer-confidence.ts';
import { groundingOf } from '../retrieval/gate/grounding.ts';
import { parseQuantities } from '../structure/quantities.ts';

/** Below this the answer is shown as unsure and names what of the question its cited evidence does not state. */
export const UNSURE_BELOW = 0.5;

export interface AnswerGate {
  /** P(the answer is right): the answer-confidence fit, else the draft's own or the retrieval's confidence. */
  confidence: number;
  /** What the question asks that neither the paper (the decision's check) nor the cited evidence states. */
  unverified: UnverifiedFacet[];
  /** The signals, the grounding, and whether the fit decided: what the answer keeps (Answer.gate). */
  reading: GateReading;
}

/**
 * The answer gate every shape passes once its sentences are verified: whether the cited evidence states what was
 * asked, and the confidence that follows. The refusal itself is the decision's (lib/retrieval/gate/abstention.ts), made
 * before any shape is drafted: on a contradiction or an absence. A grounding gap does not refuse: it lowers the
 * confidence, and an answer shown below UNSURE_BELOW names the facts it could not check.
 */
export function gateAnswer(
  result: Pick<RetrievalResult, 'abstention' | 'analysis'>,
  draft: Pick<AnswerDraft, 'shape' | 'confidence' | 'answered' | 'unmet'>,
  sentences: readonly AnswerSentence[],
  pool: readonly Evidence[],
): AnswerGate {
  const byId = evidenceById([...pool]);
  const citedIds = [...new Set(sentences.filter((s) => !isFrame(s)).flatMap((s) => s.citations))];
  const cited = citedIds.map((id) => byId.get(id)).filter((e): e is Evidence => !!e);
  // The values the answer gives are its lead sentence's (a value answer's "Drying temperature of X: 120 °C").
  const lead = sentences.find((s) => !isFrame(s) && s.citations.length > 0);
  const { ungrounded, ...grounding } = groundingOf(result.analysis, cited, lead ? parseQuantities(lead.text) : []);
  const signals = answerConfidenceSignals(result, draft, sentences, { ...grounding, ungrounded });
  const fit = answerConfidence(signals);
  // An answer that says its evidence does not meet a fact the question states (a value stated at another temperature
  // than the one asked, recipes none of which starts from the precursors named) is capped as an unverified one is
  // (answerConfidence), and names the fact.
  const confidence = Math.round((fit ?? draftConfidence(result.abstention.calibrated, draft)) * 1000) / 1000;
  const unmet: UnverifiedFacet[] = draft.unmet ? [{ facet: 'condition', asked: draft.unmet, note: 'the evidence does not state it' }] : [];
  const paper = [...(result.abstention.unverified ?? []), ...unmet];
  const named = new Set(paper.map((u) => u.asked));
  // What the cited evidence does not state is said only of an answer that cites some: an answer citing nothing (a
  // comparison whose evidence states no value of either side) says so itself.
  const unverified = confidence < UNSURE_BELOW && cited.length ? [...paper, ...ungrounded.filter((u) => !named.has(u.asked))] : paper;
  return { confidence, unverified, reading: { signals, grounding, fitted: fit !== null } };
}

/** The gate of a draft whose sentences are not verified yet (a model's answer is gated on the draft it was shown). */
export function gateDraft(result: Pick<RetrievalResult, 'abstention' | 'analysis'>, draft: AnswerDraft, pool: readonly Evidence[]): AnswerGate {
  return gateAnswer(result, draft, verifySentences(draft.sentences, evidenceById([...pool])), pool);
}
