import type { Admission } from '../common/admission.ts';
import type { TraceStep } from '../common/trace.ts';
import type { Evidence } from '../evidence/model.ts';
import type { AriaResult } from '../reasoning/aria.ts';
import type { DesignMode, DesignResult } from '../reasoning/design.ts';
import type { Abstention, AbstentionEvidence } from '../retrieval/gate/abstention.ts';
import type { AbstentionModel } from '../retrieval/gate/abstention-model.ts';
import type { RetrievalContext } from '../retrieval/context.ts';
import type { TupleReranker } from '../retrieval/graph-search.ts';
import type { GraphSourceFactory } from '../retrieval/graph-source.ts';
import type { PaperHit } from '../retrieval/papers.ts';
import type { QuestionAnalysis } from '../retrieval/question.ts';
import type { QuestionScope } from '../retrieval/scope.ts';
import type { Reformulator } from '../retrieval/reformulate.ts';
import type { QuantityAnswer } from '../retrieval/value.ts';
import type { RecipeAnswer } from '../synthesis/ask.ts';
import type { PaperBibliography } from '../db/papers.ts';

/**
 * The pipeline contract. A pipeline is one file in this folder exporting a `Pipeline`, listed once in
 * `registry.ts`; `run.ts` analyses the question, runs the pipeline inside a trace and does what every pipeline
 * shares (papers, the value of a value question, abstention). Pipelines return `Evidence` only.
 */

/** How the aria pipeline reads a question: detected from its wording, or forced. */
export const QUESTION_MODES = ['auto', 'explain', 'forward', 'inverse'] as const satisfies readonly ('auto' | 'explain' | DesignMode)[];
export type QuestionMode = (typeof QUESTION_MODES)[number];

export interface RetrieveOptions {
  /** aria only: explain (causal paths / analogues), forward prediction, inverse design, or auto (default). */
  mode?: QuestionMode;
  /** Whether a chat model is configured (the aria pipeline's tier 3 is model-only then, else it abstains). */
  modelConfigured?: boolean;
  /** Evidence items returned (top-k); default the pipeline's own. */
  k?: number;
  reformulator?: Reformulator;
  /** The graph pipeline's re-ranker: a provider cross-encoder when configured, else the offline one. */
  tupleReranker?: TupleReranker;
  /** Where graph and graph-keyword find candidate tuples (Neo4j when configured); default the embedded index. */
  graphSource?: GraphSourceFactory;
  /** Only evidence from these papers (the asker's filters, resolved to papers). */
  scope?: QuestionScope;
  /**
   * The abstention model that decides (default: the checked-in fit for the index's embedder; null: the hand rules).
   * `npm run calibrate` passes one that reads every signal, tests pass their own.
   */
  abstentionModel?: AbstentionModel | null;
  /** The server's first-come-first-served line for questions (lib/common/admission.ts); none in the CLI and tests. */
  admission?: Admission;
  /** The asker went away: a question still waiting for its turn leaves the line. */
  signal?: AbortSignal;
  /** Who asks (the address the server's request gate vouches for): the line gives each client its turn. */
  client?: string;
  /** Asked by a job (example checks, a campaign's answers): waits behind every visitor's question in the line. */
  background?: boolean;
  /**
   * The question's time budget from when it is admitted (ASSAY_QUESTION_BUDGET_SECONDS in the app; none in the CLI and
   * the evaluation): past it the question ends with an over-budget error (lib/common/deadline.ts).
   */
  budgetMs?: number;
  /** The deadline set when the question was admitted (on the server's thread), as a retrieval worker receives it. */
  deadline?: { at: number; budgetMs: number };
}

export interface PipelineContext extends RetrievalContext {
  /** The question with its typos corrected (dense baselines embed it verbatim). */
  question: string;
  /** The question exactly as typed (the plain BM25 baseline searches it). */
  originalQuestion: string;
  reformulator: Reformulator;
  tupleReranker?: TupleReranker;
  graphSource?: GraphSourceFactory;
  mode: QuestionMode;
  modelConfigured: boolean;
}

/**
 * What a pipeline adds beyond ranked evidence, tagged by kind: graph pipelines their tuples (and paths), aria
 * its tiered reasoning, design questions their suggestions. `graphEvidence` holds every tuple or path the
 * extras refer to, so each `tuple:<id>` reference resolves to its provenance.
 */
export type PipelineExtras =
  | { kind: 'graph'; graphEvidence: Evidence[] }
  | { kind: 'aria'; graphEvidence: Evidence[]; aria: AriaResult }
  | { kind: 'design'; graphEvidence: Evidence[]; design: DesignResult };

export interface PipelineOutput extends AbstentionEvidence {
  /** Ranked evidence, best first (all candidates; the orchestrator keeps the top k). */
  evidence: Evidence[];
  extras?: PipelineExtras;
  /** A pipeline that decides abstention itself (aria's tiers); otherwise the shared decision applies. */
  abstention?: Abstention;
  /** What this retrieval left out and why (a part of the index still being built): shown with the answer. */
  notice?: string;
}

export interface Pipeline<N extends string = string> {
  name: N;
  /** What a chemist is shown in the picker: a plain name ("Knowledge graph"), and one plain line on what it does. */
  label: string;
  line: string;
  /** How it works, in the terms of the methods it implements (tooltips, the evaluation, the CLI). */
  description: string;
  defaults: { k: number };
  run(ctx: PipelineContext): Promise<PipelineOutput>;
}

export interface RetrievalResult {
  pipeline: string;
  question: string;
  analysis: QuestionAnalysis;
  papers: PaperHit[];
  evidence: Evidence[];
  value: QuantityAnswer | null;
  abstention: Abstention;
  trace: TraceStep[];
  latencyMs: number;
  extras: PipelineExtras | null;
  /** The asker's filters when the question was scoped to some papers ("domain sofc · method sol-gel"). */
  scope: string | null;
  /**
   * What this retrieval leaves out: retrieved from an earlier index while the changed corpus's is built, or without a
   * part of the index still being built (the pipeline's notice).
   */
  indexNotice?: string;
  /** A question for a list of papers: how many papers of the corpus name its materials (null: it names none). */
  papersNaming?: number | null;
  /** A synthesis question's recipes from the records (lib/synthesis/ask.ts), looked up beside retrieval. */
  recipes?: RecipeAnswer | null;
  /** A refusal's note that the records hold recipes of the materials asked about (lib/answer/recipes.ts). */
  recordsNote?: string;
  /** Each compared side's value as its own value question answers it, for a comparison (lib/answer/sides.ts). */
  sideValues?: { side: string; value: QuantityAnswer }[];
  /** A question about who wrote a paper, or where or when it was published: what the library holds of the top paper (lib/answer/bibliography.ts). */
  bibliography?: { field: BibliographicField; paper: PaperBibliography };
}

/** What a bibliographic question asks of a paper. */
export type BibliographicField = 'authors' | 'year' | 'venue';

/** Declares a pipeline, keeping its name's literal type for the registry. */
export const definePipeline = <const N extends string>(p: Pipeline<N>): Pipeline<N> => p;
