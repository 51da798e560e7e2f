import { Deadline } from '../common/deadline.ts';
import { inForeground } from '../common/yield.ts';
import { createTrace, round } from '../common/trace.ts';
import { embedQueries } from '../embedding/embedder.ts';
import { decideAbstention } from '../retrieval/gate/abstention.ts';
import { modelFor, valueConfidence } from '../retrieval/gate/abstention-model.ts';
import { askedFactsCheck, preferCompletePapers } from '../retrieval/coverage.ts';
import { withBestSentence } from '../retrieval/evidence.ts';
import { embedderNoteNow, type RetrievalIndex } from '../retrieval/index.ts';
import { aggregatePapers, type PaperHit } from '../retrieval/papers.ts';
import { preferOwnResults } from '../retrieval/ownership.ts';
import { analyseQuestion, asksForPaperList } from '../retrieval/question.ts';
import { withQueryPlan } from '../retrieval/query-plan.ts';
import { correctSpelling } from '../retrieval/spelling.ts';
import { englishWords } from '../retrieval/english-dictionary.ts';
import { expandLinkedNames } from '../retrieval/linked-names.ts';
import { expandMaterialAbbreviations } from '../retrieval/material-abbreviations.ts';
import { asksHowMade } from '../synthesis/ask.ts';
import { isElementTerm, materialTerms } from '../retrieval/facets.ts';
import { textFacets } from '../structure/terms.ts';
import { rulesReformulator } from '../retrieval/reformulate.ts';
import { DEEPER_VALUE_EVIDENCE, extractValue, type QuantityAnswer, VALUE_EVIDENCE } from '../retrieval/value.ts';
import { withValueCell } from '../retrieval/table-rows.ts';
import { type Evidence, provenanceOf } from '../evidence/model.ts';
import { getPipeline, type PipelineName } from './registry.ts';
import { inScope, type QuestionScope, scopeEvidence } from '../retrieval/scope.ts';
import type { PipelineContext, PipelineOutput, RetrievalResult, RetrieveOptions } from './types.ts';

/**
 * Runs one pipeline on a question: analyse it, run the pipeline, then what every pipeline shares: papers from
 * the evidence, the top k items (with the sentence that states most of the question), the value a value
 * question asks for, and the abstention decision; every step timed in the trace.
 */
export async function retrieve(index: RetrievalIndex, question: string, pipelineName: PipelineName, opts: RetrieveOptions = {}): Promise<RetrievalResult> {
  return admitted(opts, (deadline) => retrieveNow(index, question, pipelineName, opts, deadline), question);
}

/**
 * Questions longer than this run in the admission line's heavy lane (lib/common/admission.ts): a few at a time, so
 * that a flood of them leaves the other places to ordinary questions. Real questions are far shorter: the dev sets'
 * longest is 326 characters, their 99th percentile 174–326.
 */
export const HEAVY_QUESTION_CHARS = 400;

/**
 * A retrieval that waits its turn in the server's line when there is one (`opts.admission`): the wait is its first
 * step and part of its latency. The retrieval pool's workers are admitted the same way. Its time budget
 * (`opts.budgetMs`) starts once it is admitted: `work` gets the deadline (or the one set by whoever admitted it,
 * `opts.deadline`, in a retrieval worker), and with no budget one that never comes.
 */
export async function admitted(
  opts: Pick<RetrieveOptions, 'admission' | 'signal' | 'budgetMs' | 'deadline' | 'client' | 'background'>,
  work: (deadline: Deadline) => Promise<RetrievalResult>,
  question: string,
): Promise<RetrievalResult> {
  const { admission } = opts;
  const deadline = () => (opts.deadline ? Deadline.at(opts.deadline.at, opts.deadline.budgetMs) : opts.budgetMs ? Deadline.in(opts.budgetMs) : Deadline.none());
  if (!admission) return inForeground(() => work(deadline()));
  const asked = performance.now();
  const ahead = admission.load();
  return admission.run(
    async () => {
      const waited = performance.now() - asked;
      const r = await inForeground(() => work(deadline()));
      const step = { step: 'admission', ms: round(waited), detail: { runningBefore: ahead.running, waitingBefore: ahead.waiting } };
      return { ...r, trace: [step, ...r.trace], latencyMs: round(r.latencyMs + waited) };
    },
    opts.signal,
    { client: opts.client, heavy: question.length > HEAVY_QUESTION_CHARS },
  );
}

async function retrieveNow(
  index: RetrievalIndex,
  question: string,
  pipelineName: PipelineName,
  opts: RetrieveOptions,
  deadline: Deadline,
): Promise<RetrievalResult> {
  const started = performance.now();
  const { trace, step } = createTrace(deadline);
  const pipeline = getPipeline(pipelineName);
  // Every trace says which embedder the dense search ran on, and why when it is not the configured model.
  await step(
    'embedder',
    () => index.embedderId,
    (id) => {
      // While the model embeds the corpus in the background: how far it has got, at this question.
      const note = embedderNoteNow(index);
      return { id, ...(note ? { note } : {}) };
    },
  );
  const isEnglish = await englishWords();
  const spelling = await step(
    'spelling',
    () => correctSpelling(index.vocabulary, question, isEnglish),
    (s) => ({ corrections: s.corrections.map((c) => `${c.from} → ${c.to}`) }),
  );
  // A material named by an alias of its Wikidata item ("magnesium diboride") is read as the graph's label (MgB2).
  // (A step only where the graph has linked materials: a corpus without links traces nothing for it.)
  const linked = index.linkedNames?.size
    ? await step(
        'linked-names',
        () => expandLinkedNames(index.linkedNames!, spelling.text),
        (l) => ({ expansions: l.expansions.map((e) => `${e.from} → ${e.to} (Wikidata ${e.qid})`) }),
      )
    : { text: spelling.text, expansions: [] };
  // A material typed by a short form the corpus defines for its formula ("LFP") is read as the formula (LiFePO4) in a
  // synthesis question, whose recipes the records key by formula. Elsewhere the short form is searched as typed:
  // replaced, it lost the papers that write only it, and beside it, the formula made the abstention ask papers for
  // what they write only as the short form (three more false refusals on the development set either way).
  const abbreviated = index.materialAbbreviations?.size
    ? await step(
        'material-abbreviations',
        () => {
          const expanded = expandMaterialAbbreviations(index.materialAbbreviations!, linked.text, namesMaterial);
          return expanded.expansions.length && asksHowMade(analyseQuestion(linked.text)) ? expanded : { text: linked.text, expansions: [] };
        },
        (m) => ({
          expansions: m.expansions.map((e) =>
            e.source === 'records'
              ? `${e.from} → ${e.to} (spelled by the targets of ${e.uses} of the ${e.total} recipes whose targets spell it)`
              : `${e.from} → ${e.to} (${e.uses} of ${e.total} uses in the corpus)`,
          ),
        }),
      )
    : linked;
  // The question's vector is asked for now, on the model's thread, while this one analyses and searches: most
  // pipelines need it only at the end (the abstention's dense signals), and by then it is there. Errors surface
  // where it is used.
  if (index.embedder.embedQuery) embedQueries(index.embedder, [abbreviated.text]).catch(() => {});
  const analysis = await step(
    'analyse',
    () => analyseQuestion(abbreviated.text),
    (a) => ({
      intent: a.intent,
      title: a.title,
      materials: a.materials,
      entityWords: a.entityWords,
      properties: a.properties,
      quantities: a.quantities.map((q) => `${q.text} = ${q.canonical.join('–')} ${q.canonicalUnit}`),
      askedDimension: a.askedDimension,
    }),
  );
  const base = {
    index,
    analysis,
    question: abbreviated.text,
    originalQuestion: question,
    step,
    deadline,
    k: opts.k ?? pipeline.defaults.k,
    reformulator: opts.reformulator ?? rulesReformulator,
    tupleReranker: opts.tupleReranker,
    graphSource: opts.graphSource,
    mode: opts.mode ?? 'auto',
    modelConfigured: opts.modelConfigured ?? false,
  };
  const ctx: PipelineContext = withQueryPlan(base);
  const unscoped = await pipeline.run(ctx);
  const ranked = opts.scope ? await scoped(ctx, opts.scope, unscoped) : unscoped;
  const papers = await step(
    'aggregate-papers',
    () => {
      const states = askedFactsCheck(index, analysis);
      return preferOwnResults(index, analysis, preferCompletePapers(index, analysis, aggregatePapers(index, ranked.evidence), states), states);
    },
    (p) => ({
      papers: p.slice(0, 5).map((x) => ({
        paper: x.title ?? x.doi ?? x.paperId,
        score: round(x.score, 4),
        ...(x.statesAskedFacts ? { statesAskedFacts: x.statesAskedFacts } : {}),
      })),
    }),
  );
  // A question for papers in the plural is answered by a paper per item: each paper's best item first (in the papers'
  // order), then the rest by rank (one paper's paragraphs filled the top k, and the answer could name only it).
  const listsPapers = asksForPaperList(analysis);
  const kept = listsPapers ? paperByPaper(ranked.evidence, papers, ctx.k) : ranked.evidence.slice(0, ctx.k);
  const top = kept.map((e) => withBestSentence(ctx, e));
  const read =
    analysis.intent === 'value'
      ? await step(
          'extract-value',
          () => readValue(ctx, top, ranked.evidence),
          (v) => ({ value: v.value?.text ?? null, ...(v.deeper ? { readTo: DEEPER_VALUE_EVIDENCE } : {}) }),
        )
      : null;
  const extracted = read?.value ?? null;
  const evidence = read?.evidence ?? top;
  const abstention = await step(
    'abstention',
    async () => {
      const decided = ranked.abstention ?? (await decideAbstention(index, analysis, papers, ranked, abbreviated.text, opts.abstentionModel));
      // Nothing within the filters is a fact about the filters, not about the corpus.
      return opts.scope && papers.length === 0
        ? { ...decided, explanation: `no paper matching the filters (${opts.scope.description}) holds evidence for the question` }
        : decided;
    },
    (a) => ({ ...a }),
  );
  // A value answer's confidence is the value's, not only its paper's: the family's value fit, when there is one.
  const fit = opts.abstentionModel === undefined ? modelFor(index.embedderId) : opts.abstentionModel;
  const value =
    extracted?.support && fit?.valueConfidence && !abstention.abstain
      ? await step(
          'value-confidence',
          () => ({ ...extracted, confidence: round(valueConfidence(fit, abstention.calibrated, extracted.support) ?? abstention.calibrated, 3) }),
          (v) => ({ confidence: v.confidence, paperConfidence: abstention.calibrated, support: v.support }),
        )
      : extracted;
  return {
    pipeline: pipeline.name,
    question,
    analysis,
    papers: papers.slice(0, 10),
    evidence: value ? citeValueCell(index, evidence, value) : evidence,
    value,
    abstention,
    trace,
    latencyMs: round(performance.now() - started),
    extras: ranked.extras ?? null,
    scope: opts.scope?.description ?? null,
    ...(ranked.notice ? { indexNotice: ranked.notice } : {}),
    ...(listsPapers ? { papersNaming: papersNaming(index, analysis.materials) } : {}),
  };
}

/**
 * How many papers of the corpus have a paragraph naming every one of the question's materials (elements apart): what
 * a list of papers says it leaves out. Null when the question names none.
 */
function papersNaming(index: RetrievalIndex, materials: string[]): number | null {
  const keys = materials.filter((m) => !isElementTerm(m));
  if (!keys.length) return null;
  const papersOf = (key: string) =>
    new Set(
      index.paragraphLexical
        .query([key], { limit: index.paragraphs.size, fields: ['structure'], maxDocumentShare: 1 })
        .map((h) => index.paragraphs.get(h.id)?.paperId),
    );
  const [first, ...rest] = keys.map(papersOf);
  let n = 0;
  for (const p of first) if (rest.every((s) => s.has(p))) n++;
  return n;
}

/** Whether a word names a material as typed (a lexicon material such as YSZ, or a formula): not to be expanded. */
function namesMaterial(word: string): boolean {
  const f = textFacets(word);
  return materialTerms(f.formulas, f.materials).size > 0;
}

/**
 * The value the top items state; when they state none, the value of the ranking read deeper (DEEPER_VALUE_EVIDENCE),
 * its item joining the evidence after the top ones so that the answer can cite it.
 */
function readValue(ctx: PipelineContext, top: Evidence[], ranked: Evidence[]): { value: QuantityAnswer | null; evidence: Evidence[]; deeper: boolean } {
  const value = extractValue(top.slice(0, VALUE_EVIDENCE), ctx.analysis);
  if (value || ranked.length <= VALUE_EVIDENCE) return { value, evidence: top, deeper: false };
  const shown = new Set(top.map((e) => e.id));
  const deeper = ranked.slice(0, DEEPER_VALUE_EVIDENCE).map((e) => (shown.has(e.id) ? top.find((x) => x.id === e.id)! : withBestSentence(ctx, e)));
  const found = extractValue(deeper, ctx.analysis);
  if (!found) return { value: null, evidence: top, deeper: true };
  const item = deeper.find((e) => e.id === found.evidenceId)!;
  const fromDeeper = found.support ? { ...found, support: { ...found.support, deeper: true } } : found;
  return { value: fromDeeper, evidence: shown.has(item.id) ? top : [...top, item], deeper: true };
}

/** The top `k` items with each paper's best item first, in the order of `papers` (see `retrieve`). */
function paperByPaper(evidence: Evidence[], papers: PaperHit[], k: number): Evidence[] {
  const byId = new Map(evidence.map((e) => [e.id, e]));
  const firsts = papers.map((p) => p.evidenceIds.map((id) => byId.get(id)).find(Boolean)).filter((e): e is Evidence => !!e);
  const chosen = new Set(firsts.slice(0, k));
  return [...chosen, ...evidence.filter((e) => !chosen.has(e))].slice(0, k);
}

/** A value read from a table row is cited to its cell (lib/retrieval/table-rows.ts). */
function citeValueCell(index: RetrievalIndex, evidence: Evidence[], value: QuantityAnswer): Evidence[] {
  const span = value.span;
  if (!span) return evidence;
  return evidence.map((e) => {
    const paragraphId = e.id === value.evidenceId && e.kind === 'paragraph' ? provenanceOf(e, 'paragraph')[0]?.paragraphId : undefined;
    return paragraphId ? withValueCell(e, index.paragraphs.get(paragraphId)?.table, paragraphId, span) : e;
  });
}

/** The pipeline's output within the asker's scope: its evidence and its graph evidence, from the scoped papers only. */
function scoped(ctx: PipelineContext, scope: QuestionScope, out: PipelineOutput): Promise<PipelineOutput> {
  return ctx
    .step(
      'scope',
      async () => {
        const { evidence, added } = await scopeEvidence(ctx, scope, out.evidence, ctx.question);
        const extras = out.extras && { ...out.extras, graphEvidence: out.extras.graphEvidence.filter((e) => inScope(ctx, scope, e)) };
        return { out: { ...out, evidence, ...(extras ? { extras } : {}) }, added };
      },
      ({ out: o, added }) => ({ filters: scope.description, papers: scope.paperIds.size, kept: o.evidence.length - added, addedFromScopedSearch: added }),
    )
    .then((r) => r.out);
}
