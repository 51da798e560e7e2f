import type { FacetDifference, UnverifiedFacet } from '../retrieval/gate/facet-verdicts.ts';
import type { TraceStep } from '../common/trace.ts';
import type { Evidence } from '../evidence/model.ts';
import type { ReasonCode } from '../retrieval/gate/abstention.ts';
import type { AnswerConfidenceSignals } from '../retrieval/gate/answer-confidence.ts';
import type { Grounding } from '../retrieval/gate/grounding.ts';
import { labelsById } from './pool.ts';

/**
 * An answer: sentences, each citing evidence items by id (only items retrieved for this question), each with a
 * verdict from checking it against what it cites; a table for cross-paper values; the abstention with its
 * reason codes and what the corpus does hold; the evidence pool it may cite. Extractive answers are composed
 * from evidence with no model; generative ones come from a model and pass the same guard and checks.
 */
export const ANSWER_SHAPES = [
  'which-paper',
  'value',
  'table',
  'ranking',
  'descriptive',
  'design',
  'synthesis',
  'comparison',
  'bibliography',
  'abstain',
] as const;
export type AnswerShape = (typeof ANSWER_SHAPES)[number];

/** supported: what it states is in what it cites; partial: some of it; unsupported: none; uncited: cites nothing. */
export type Verdict = 'supported' | 'partial' | 'unsupported' | 'uncited';

export interface ClaimCheck {
  /** Values of the sentence found (in canonical units, within tolerance) in the cited evidence / not found. */
  quantities: { found: string[]; missing: string[] };
  /** Materials of the sentence (canonical keys) found in the cited evidence / not found. */
  materials: { found: string[]; missing: string[] };
  /** Share of the sentence's content words that the cited evidence contains. */
  termOverlap: number;
}

export interface AnswerSentence {
  text: string;
  /** Evidence ids (`paragraph:…`, `tuple:…`) this sentence rests on. */
  citations: string[];
  verdict: Verdict;
  check: ClaimCheck | null;
  /** e.g. `citation-removed`: the answer cited an id that was not retrieved for this question. */
  flags: string[];
  /** The judge model's verdict beside the offline one, when a judge model is configured (null: it gave none). */
  judge?: Exclude<Verdict, 'uncited'> | null;
}

/** One reported value in a cross-paper table. */
export interface ValueRow {
  material: string | null;
  value: string;
  /** In the canonical unit of the property's dimension, for sorting and comparing. */
  canonical: number[];
  canonicalUnit: string;
  conditions: string[];
  paperId: string | null;
  paperTitle: string | null;
  evidenceId: string;
}

export interface AnswerAbstention {
  abstain: boolean;
  reasons: (ReasonCode | 'model-declined')[];
  explanation: string;
  /** What the corpus does hold, said plainly ("papers on BZCY anodes are here; none reports …"). */
  corpusHolds: string | null;
  /** How the closest evidence differs from the question (absent on answers stored before it was said). */
  differences?: FacetDifference[];
}

/** extractive: no model; generative: a model from the evidence; model-only and naive-kg: method C's baselines. */
export const ANSWER_MODE_NAMES = ['extractive', 'generative', 'model-only', 'naive-kg'] as const;
export type AnswerMode = (typeof ANSWER_MODE_NAMES)[number];

export interface Answer {
  question: string;
  pipeline: string;
  mode: AnswerMode;
  /** The model that wrote a generative answer; null for extractive answers. */
  modelId: string | null;
  shape: AnswerShape;
  sentences: AnswerSentence[];
  table: ValueRow[] | null;
  /** Papers whose values disagree under comparable conditions, said as a note under the table. */
  disagreement: string | null;
  abstention: AnswerAbstention;
  /** The citable pool (pool.ts): everything the answer may cite, in the order it is numbered ([E1], [E2] …). */
  evidence: Evidence[];
  /** Shown with the answer, e.g. that a failing model was replaced by the extractive answer. */
  notice: string | null;
  confidence: number;
  /**
   * What of the question the cited paper neither states nor contradicts (a value it says nothing of, a composition
   * it states only as a family): the answer stands, at a lower confidence, and says so.
   */
  unverified?: UnverifiedFacet[];
  /**
   * The answer gate's reading (lib/answer/gate): the signals its confidence was computed from and whether the cited
   * evidence states the asked material, property and values (shares; null where the question asks none). Null for
   * a refusal and on answers stored before the gate.
   */
  gate?: GateReading | null;
  /** The asker's filters when the question was scoped to some papers (absent on answers stored before filters). */
  scope?: string | null;
  trace: TraceStep[];
  tokens: { prompt: number; completion: number } | null;
  /** What the model's reply cost in US dollars at the configured price (absent or null: no model, or no price set). */
  costUsd?: number | null;
  latencyMs: number;
}

/** What the answer gate read of an answer (lib/answer/gate.ts), kept with it. */
export interface GateReading {
  signals: AnswerConfidenceSignals;
  grounding: Omit<Grounding, 'ungrounded'>;
  /** Whether the confidence is the gate's fit (false: no fit, the draft's own or the retrieval's confidence). */
  fitted: boolean;
}

/** The answer's text with citation labels, e.g. "… 39 K [E1]." */
export function answerText(a: Pick<Answer, 'sentences' | 'evidence'>): string {
  const label = labelsById(a.evidence);
  return a.sentences
    .map((s) => {
      const marks = s.citations.map((c) => label.get(c)).filter(Boolean);
      return marks.length ? `${s.text} [${marks.join(', ')}]` : s.text;
    })
    .join(' ');
}

/**
 * Whether an answer offers "look for papers" (lib/corpus/paper-search.ts): the corpus did not answer it (an
 * abstention) or tiered reasoning found nothing in the graph (tier 3).
 */
export function offersPaperSearch(answer: Pick<Answer, 'abstention' | 'trace'>): boolean {
  return answer.abstention.abstain || ariaTier(answer.trace) === 3;
}

/** The tier tiered reasoning answered from (its `aria` trace step), or null when the pipeline has no tiers. */
export function ariaTier(trace: TraceStep[]): number | null {
  const tier = (trace.find((t) => t.step === 'aria')?.detail as { tier?: unknown } | undefined)?.tier;
  return typeof tier === 'number' ? tier : null;
}
