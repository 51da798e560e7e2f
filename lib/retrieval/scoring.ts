/**
 * Scoring in one home: every weight, boost and threshold by which retrieval ranks evidence and papers and decides
 * to abstain, named and documented here; the modules that apply them (fusion.ts, coverage.ts, papers.ts,
 * evidence.ts, search.ts, abstention.ts) and the pipelines import them, so tuning one never means hunting for a
 * literal in a pipeline. Each figure says what it was measured on.
 *
 * This module is a leaf of lib/retrieval: it imports nothing.
 */

// ── Fusion (fusion.ts) ──────────────────────────────────────────────────────────────────────────────────────

/** Reciprocal-rank fusion's k: the published default (Cormack et al. 2009), keeps the first ranks from dominating. */
export const RRF_K = 60;

/**
 * Weight of the graph retriever's score in the hybrid pipeline's fused ranking (both max-normalised). Zero: the
 * graph finds the right paper for about half of the dev questions where the structured retriever finds it for
 * nearly all, and on questions.dev.jsonl a weight of 0.25 cost 3 points of DOI@1 (0.958 → 0.929) and even 0.05 one
 * point. The graph's part is its tuples on the paragraphs both found, and its own items below the structured ones.
 */
export const GRAPH_WEIGHT = 0;

/** Items only the second retriever found rank at this share of the first list's lowest normalised score. */
export const SECOND_ONLY_SHARE = 0.5;

// ── Boosts (coverage.ts, evidence.ts, the records pipeline) ─────────────────────────────────────────────────

/**
 * Structured boosts: score × (1 + s·coverage), s = FACET_BOOST once the question states two facets or more, less
 * below (coverage of a single facet is all-or-nothing and would triple any paragraph naming it).
 */
export const FACET_BOOST = 2;
/** Synthesis paragraphs when the question is about making something. */
export const SYNTHESIS_ROLE_BOOST = 1.2;
/** Imported records: BM25 × (1 + RECORD_COVERAGE_BOOST · facet coverage). */
export const RECORD_COVERAGE_BOOST = 2;
/** Graph evidence: a paragraph or record scores as its best tuple + this per further tuple (at most four count). */
export const PER_FURTHER_TUPLE = 0.05;
export const MAX_FURTHER_TUPLES = 4;
/** Graph evidence: how much a paragraph's joint coverage of the question (IDF-weighted keywords) adds (0–1). */
export const GROUP_COVERAGE_WEIGHT = 0.3;

// ── Paper ordering (papers.ts) ──────────────────────────────────────────────────────────────────────────────

/** A paper scores as its best evidence + this × its second best, which only breaks near-ties. */
export const SECOND_EVIDENCE_WEIGHT = 0.05;

// ── Reformulation (search.ts, coverage.ts) ──────────────────────────────────────────────────────────────────

/**
 * The lead (share of its score) by which the first retrieval's best paper skips decomposition. Swept on all five
 * dev sets: never keeping it, natural-wording DOI@1 0.92; ≥ 0.5, 0.94; ≥ 0.35, 0.96; ≥ 0.25 and ≥ 0.15, 0.98
 * (hard 0.939 → 0.945); ≥ 0.05 starts to cost (hard false abstention 0.045 → 0.052).
 */
export const CLEAR_LEAD = 0.25;
/** Sufficiency: the best paragraph states this share of the question's facets … */
export const SUFFICIENT_COVERAGE = 0.75;
/** … and states all of them, or its paper leads the next by this share of its score. */
export const SUFFICIENT_MARGIN = 0.1;

// ── Abstention (abstention.ts) ──────────────────────────────────────────────────────────────────────────────

/** Confidence below which the system says "not in this corpus" rather than naming a paper. */
export const ABSTAIN_BELOW = 0.5;
/**
 * Below this share of the question's distinctive words (weighted by rarity) found anywhere in the best paper, a
 * question that describes a paper is about another paper than any here, whatever facets match.
 */
export const TERM_COVERAGE_MIN = 0.3;
/**
 * A question that describes its paper at length (at least DESCRIPTIVE_WORDS distinctive words) says enough to
 * be held to more: the best paper must state TERM_COVERAGE_DESCRIBED of the words (weighted by rarity), and
 * when no paragraph of it states PARAGRAPH_COVERAGE_MIN of them together, it must lead the next paper by
 * MARGIN_MIN of its score. Fitted on the dev sets (KIST-form, near-miss, plain, hard and natural-wording).
 */
export const DESCRIPTIVE_WORDS = 6;
export const TERM_COVERAGE_DESCRIBED = 0.4;
export const PARAGRAPH_COVERAGE_MIN = 0.4;
export const MARGIN_MIN = 0.2;
/**
 * Share of a named-facet question's other words (weighted by rarity) that one paragraph of the best paper must state
 * (see askedWordsCoverage in term-coverage.ts).
 */
export const ASKED_WORDS_STATED = 0.5;
/**
 * The question reader's out-of-scope probability from which a question whose other words the best paper lacks is
 * refused. On the question bank (in-sample reader), the in-domain questions the words check alone would refuse read
 * at most 0.13 (a frame such as "I need a number for …"), the off-topic ones that reach it 0.18–0.78.
 */
export const ASKED_WORDS_OUTSIDE = 0.15;
/** Confidence when the best paper lacks a value or technique the question states (below ABSTAIN_BELOW). */
export const DECISIVE_MISS_CONFIDENCE = 0.35;
/**
 * Confidence, at most, when the best paper names what was asked but leaves a value unverified (it states nothing of
 * it either way) or states the material only as its family: above ABSTAIN_BELOW (an answer), below a full match.
 */
export const UNVERIFIED_CONFIDENCE = 0.6;
/** Confidence of a question that names no material, value or property (only its words can match). */
export const NO_FACET_CONFIDENCE = 0.6;
/** Each of the question's names the corpus does not know takes up to this share of the confidence. */
export const UNKNOWN_NAME_PENALTY = 0.75;
