import { tagger } from './tagger.ts';
import type { RerankingModel } from 'ai';
import { stemmer } from 'stemmer';
import { plainTerms } from '../structure/terms.ts';
import type { IndexedTuple } from './graph-index.ts';
import { type GraphCandidateSource, tupleOrdinals } from './graph-source.ts';
import type { QuestionAnalysis } from './question.ts';
import type { StepFn } from '../common/trace.ts';
import type { ScoredTuple } from './evidence.ts';
import type { ScoredId } from './lexical-index.ts';
import { quantityMatch } from './facets.ts';
import { materialEntity } from '../graph/tuples.ts';
import { kthLargest } from '../common/kth-largest.ts';
import { CutArrays, OrdinalScores } from './ordinal-scores.ts';

/**
 * Graph retrieval.
 * - `graph` (method B): keywords from the optimised question; string retrieval (tuples holding every keyword
 *   first, else at least two; score = share of keywords); canonical retrieval (the question's canonical
 *   materials, properties and the unknown names it gives ("PCCO") exactly, and entities whose embedded label has cosine ≥ 0.7 with the question or a
 *   keyword); hybrid S = 0.7·canonical + 0.3·string, min–max normalised, below 0.6 dropped; re-ranked over up to
 *   4 × max_tuples candidates by an offline re-ranker (keyword overlap weighted by each keyword's inverse document
 *   frequency over the tuples, plus value agreement in
 *   canonical units), final = 0.7·rerank + 0.3·S; tuples on ≤ 3-hop paths between the question's entities get a
 *   bonus; max_tuples = 300. Our addition, the dense entry: the tuples read from the paragraphs nearest the
 *   question by the passage model (not by entity names, whose cosines do not separate synonyms from distinct
 *   materials) join the candidates whatever their S, and every tuple gains by its paragraph's nearness. Natural
 *   wording names what it asks about in words no tuple holds ("how hot", "air electrode"); without it the graph
 *   pipeline found nothing for a third of such questions.
 * - `graph-keyword` (method D): lemmas of nouns, proper nouns, adjectives and verbs (compromise's tagger) longer
 *   than two characters select the tuples whose text contains them, capped to a context budget.
 */
/** A cross-encoder over tuple texts: relevance of each text to the query, aligned with the input. */
export interface TupleReranker {
  id: string;
  score(query: string, texts: string[]): Promise<number[]>;
}

/** The AI SDK's `rerank()` over a provider's reranking model, scores min–max normalised per query. */
export function providerTupleReranker(model: RerankingModel, id: string): TupleReranker {
  return {
    id,
    async score(query, texts) {
      if (texts.length === 0) return [];
      // Loaded on the first call: a retrieval worker without a re-ranker never loads the AI SDK.
      const { rerank } = await import('ai');
      const { ranking } = await rerank({ model, query, documents: texts, maxRetries: 1 });
      const out = new Array<number>(texts.length).fill(0);
      const lo = ranking.reduce((m, r) => Math.min(m, r.score), Infinity);
      const hi = ranking.reduce((m, r) => Math.max(m, r.score), -Infinity);
      for (const r of ranking) out[r.originalIndex] = hi > lo ? (r.score - lo) / (hi - lo) : 1;
      return out;
    },
  };
}

export const MAX_TUPLES = 300;

export interface GraphRetrieval {
  /** The tuples, best first (at most MAX_TUPLES). */
  hits: ScoredTuple[];
  /** The question's keywords with their inverse document frequency over the tuples. */
  keywordWeights: Map<string, number>;
}
const CANONICAL_COSINE = 0.7;
/**
 * Weight of the dense entry in a tuple's final score: its paragraph's cosine with the question, min–max scaled over
 * the entry paragraphs (the nearest 1, the last 0). Swept over 0, 0.2, 0.4 and 0.7 on every dev form with the graph
 * pipeline: 0.4 raised DOI@5 on each answerable form (natural 0.58 → 0.88); 0.7 gained little more and abstained
 * less on the unanswerable set (0.952 → 0.905).
 */
export const DENSE_ENTRY_WEIGHT = 0.4;

/**
 * Keywords a question's graph search reads, the first in the question's order: each is a term lookup and an
 * entity-label probe compared with every entity, so a pasted page of 300 distinct words cost seconds. No dev
 * question has more than 33 (27 for graph-keyword's lemmas), so none is cut.
 */
export const MAX_GRAPH_KEYWORDS = 48;
/**
 * Entities among which multi-hop paths are searched, each pair a path search (300 entities were 45,000 searches).
 * No dev question names more than 12.
 */
export const MAX_PATH_ENDS = 12;

const QUESTION_WORDS = new Set(['paper', 'studi', 'report', 'find', 'which', 'what', 'show', 'give', 'valu', 'prepar', 'synthes']);

export interface GraphRetrieveOptions {
  /** Embeds entity-label probes (the question and its keywords) for canonical retrieval. */
  embedLabels: (texts: string[]) => Promise<Float32Array[]>;
  step: StepFn;
  reranker?: TupleReranker;
  /** The paper a quoted title names: its tuples are the candidates, ranked by the same scores. */
  titlePaper?: string | null;
  /**
   * Paragraphs nearest the question's meaning (the passage model's cosine), best first: the tuples read from them
   * join the candidates, and every tuple gains DENSE_ENTRY_WEIGHT by how near its paragraph is. A promise, awaited
   * after string and canonical retrieval: the question's vector is computed on the model's thread meanwhile.
   */
  entry?: Promise<ScoredId[]>;
}

export async function graphRetrieve(
  source: GraphCandidateSource,
  analysis: QuestionAnalysis,
  query: string,
  opts: GraphRetrieveOptions,
): Promise<GraphRetrieval> {
  const { embedLabels: embed, step, reranker, titlePaper = null } = opts;
  const keywords = await step(
    'preprocess',
    () => [...new Set(plainTerms(query))].filter((k) => !QUESTION_WORDS.has(k)).slice(0, MAX_GRAPH_KEYWORDS),
    (k) => ({ keywords: k }),
  );
  // Candidates are scored by tuple ordinal (see TupleOrdinals): only the survivors of the hybrid cut get their ids.
  const ordinals = tupleOrdinals(source);
  // String retrieval.
  const { stringScore, weights } = await step(
    'string-retrieval',
    async () => {
      // Keywords on more than a fifth of all tuples ("cell", "temperature") select nothing useful and cost most.
      const total = await source.tupleCount();
      const cap = total * 0.2;
      const { postingSizes, tuples, counts } = await ordinals.termMatches(keywords, cap, Math.min(2, keywords.length));
      // Tuples holding every keyword when each is within the cap, else those holding at least two.
      let everyKeyword = false;
      if (postingSizes.size === keywords.length) for (let i = 0; i < counts.length && !everyKeyword; i++) everyKeyword = counts[i] >= keywords.length;
      // Each keyword's inverse document frequency over the tuples, for the re-ranker: the rare name the question
      // is about ("PCCO") says more than the words for its form ("single crystals"). A keyword past the cap, or
      // in no tuple, weighs as one at the cap.
      const weights = new Map(keywords.map((k) => [k, Math.log(1 + total / Math.max(postingSizes.get(k) ?? cap, 1))]));
      const stringScore = OrdinalScores.take(ordinals.size());
      for (let i = 0; i < tuples.length; i++)
        if (!everyKeyword || counts[i] >= keywords.length) stringScore.set(tuples[i], counts[i] / Math.max(keywords.length, 1));
      return { stringScore, weights };
    },
    (m) => ({ tuples: m.stringScore.size, weights: Object.fromEntries([...m.weights].map(([k, w]) => [k, Math.round(w * 100) / 100])) }),
  );
  // Canonical retrieval: exact canonical keys, then embedded labels.
  const canonicalScore = await step(
    'canonical-retrieval',
    async () => {
      // The question's materials and properties, and the names it gives that no lexicon knows ("PCCO", "BSCCO"),
      // under the key the extractor gives such a name.
      const named = analysis.entityWords.map((w) => materialEntity(w).key).filter((k) => k.startsWith('n:'));
      const found = await ordinals.entityTuples([...new Set([...analysis.materials, ...named, ...analysis.properties.map((p) => `p:${p}`)])]);
      const probes = await embed([query, ...keywords.filter((k) => k.length > 3)]);
      const similar = await ordinals.similarEntities(probes, CANONICAL_COSINE);
      const scores = OrdinalScores.take(ordinals.size());
      for (const tuples of found.values()) for (let i = 0; i < tuples.length; i++) scores.raise(tuples[i], 1);
      for (const e of similar) {
        // Rounded to 1e-6: Neo4j computes cosines in float32, the embedded index in float64, and the last digits
        // would otherwise reorder tuples whose scores tie.
        const cosine = Math.round(e.cosine * 1e6) / 1e6;
        for (let i = 0; i < e.tuples.length; i++) scores.raise(e.tuples[i], cosine);
      }
      return { scores, exact: [...found.keys()] };
    },
    (c) => ({ tuples: c.scores.size, exactEntities: c.exact }),
  );
  const titleTuples = titlePaper ? [...new Set(Array.from(await ordinals.paperTuples(titlePaper)))] : null;
  const titleIds = titleTuples ? new Set(titleTuples.map((o) => ordinals.idOf(o))) : null;
  // Multi-hop paths between the question's canonical entities: before the dense entry, which waits for the
  // question's vector, so that the paths are searched meanwhile (up to 17 ms for a question naming several).
  const onPath = await step(
    'multi-hop',
    async () => {
      const ends = canonicalScore.exact.slice(0, MAX_PATH_ENDS);
      const found = new Set<string>();
      for (let i = 0; i < ends.length; i++)
        for (let j = i + 1; j < ends.length; j++) for (const id of await source.pathTuples(ends[i], ends[j], 3, 20)) found.add(id);
      return found;
    },
    (p) => ({ tuplesOnPaths: p.size }),
  );
  // Dense entry: tuples read from the paragraphs nearest the question's meaning ("air electrode" finds the cathode
  // paragraph that string and canonical retrieval cannot), each with its paragraph's scaled nearness.
  const { nearness, nearnessById, entryTuples } = await step(
    'dense-entry',
    async () => {
      const nearnessById = new Map<string, number>();
      const entry = (await opts.entry) ?? [];
      if (entry.length === 0) return { nearness: OrdinalScores.take(0), nearnessById, entryTuples: new Map<string, IndexedTuple>() };
      const hi = entry[0].score;
      const lo = entry[entry.length - 1].score;
      const scaled = new Map(entry.map((p) => [p.id, hi > lo ? (p.score - lo) / (hi - lo) : 1]));
      const read = Array.from(await ordinals.paragraphTuples(entry.map((p) => p.id)));
      // Read here for their paragraphs, and kept: the candidates' read below leaves them out.
      const entryTuples = await source.tuples(read.map((o) => ordinals.idOf(o)));
      const nearness = OrdinalScores.take(ordinals.size());
      for (const o of read) {
        const id = ordinals.idOf(o);
        const t = entryTuples.get(id);
        if (!t?.paragraphId || (titleIds && !titleIds.has(id))) continue;
        const near = scaled.get(t.paragraphId) ?? 0;
        nearness.set(o, near);
        nearnessById.set(id, near);
      }
      return { nearness, nearnessById, entryTuples };
    },
    (e) => ({ tuples: e.nearness.size }),
  );
  // Hybrid score, min–max normalised, threshold 0.6.
  const hybrid = await step(
    'hybrid',
    () => {
      // A question about a named paper ("In \"<title>\", what power density …") is answered from that paper's tuples,
      // as the paragraph pipelines filter their search to it; nothing else competes and no threshold applies.
      // Tens of thousands of candidates at ten times the shared corpus (a question naming TiO2): scores are kept in
      // parallel lists, and only the survivors of the threshold and the cut become objects.
      const canonical = canonicalScore.scores;
      const cut = CutArrays.take(titleTuples ? titleTuples.length : canonical.size + stringScore.size + nearness.size);
      const { candidates, raw, kept } = cut;
      let n = 0;
      const add = (o: number, c: number) => {
        candidates[n] = o;
        raw[n++] = 0.7 * c + 0.3 * stringScore.get(o);
      };
      if (titleTuples) for (const o of titleTuples) add(o, canonical.get(o));
      else {
        for (let i = 0; i < canonical.size; i++) add(canonical.at(i), canonical.get(canonical.at(i)));
        for (let i = 0; i < stringScore.size; i++) if (!canonical.has(stringScore.at(i))) add(stringScore.at(i), 0);
        for (let i = 0; i < nearness.size; i++) {
          const o = nearness.at(i);
          if (!canonical.has(o) && !stringScore.has(o)) add(o, 0);
        }
      }
      if (n === 0) return [];
      let lo = Infinity;
      let hi = -Infinity;
      for (let i = 0; i < n; i++) {
        if (raw[i] < lo) lo = raw[i];
        if (raw[i] > hi) hi = raw[i];
      }
      let k = 0;
      for (let i = 0; i < n; i++) {
        raw[i] = hi > lo ? (raw[i] - lo) / (hi - lo) : 1;
        if (titleTuples || raw[i] >= 0.6 || nearness.has(candidates[i])) kept[k++] = i;
      }
      const top = topCandidates((i) => ordinals.idOf(candidates[i]), raw, kept.subarray(0, k), 4 * MAX_TUPLES, ordinals.inIdOrder ? candidates : undefined);
      cut.release();
      return top;
    },
    (h) => ({ kept: h.length }),
  );
  // Not read past the cut (the re-ranker reads the entry's nearness by id).
  for (const scores of [stringScore, canonicalScore.scores, nearness]) scores.release();
  // The candidates' tuples, read once (from Neo4j, one round trip): those the dense entry read are not read again.
  const tuples = await source.tuples([...new Set([...hybrid.map((h) => h.id), ...onPath])].filter((id) => !entryTuples.has(id)));
  for (const [id, t] of entryTuples) tuples.set(id, t);
  // Re-ranker (the provider's cross-encoder when configured, else offline) and final score.
  // Read as plain arrays: the re-ranker runs for every candidate (some 700 a question).
  const keywordList = [...weights.keys()];
  const weightList = [...weights.values()];
  const weightSum = weightList.reduce((a, w) => a + w, 0);
  const offlineRerank = (t: IndexedTuple) => {
    let overlap = 0;
    for (let i = 0; i < keywordList.length; i++) if (t.terms.includes(keywordList[i])) overlap += weightList[i];
    const values = analysis.quantities.length ? analysis.quantities.reduce((a, q) => a + quantityMatch(t.quantities, q), 0) / analysis.quantities.length : 0;
    return 0.7 * (weightSum ? overlap / weightSum : 0) + 0.3 * values;
  };
  return step(
    'rerank',
    async () => {
      const ranked = hybrid.filter((h) => tuples.has(h.id));
      let provider: number[] | null = null;
      let note = 'offline';
      if (reranker && ranked.length > 0) {
        try {
          provider = await reranker.score(
            analysis.question,
            ranked.map(({ id }) => tuples.get(id)!.text),
          );
          note = reranker.id;
        } catch (error) {
          // The question is still answered: the offline re-ranker stands in, and the trace says so.
          note = `offline (re-ranker ${reranker.id} failed: ${(error as Error).message.slice(0, 160)})`;
        }
      }
      const scored = ranked.map(({ id, s }, i) => {
        const t = tuples.get(id)!;
        const rr = provider ? provider[i] : offlineRerank(t);
        const final = 0.7 * rr + 0.3 * s + (onPath.has(id) ? 0.2 : 0) + DENSE_ENTRY_WEIGHT * (nearnessById.get(id) ?? 0);
        return { tuple: t, score: final, onPath: onPath.has(id) };
      });
      const kept = new Set(ranked.map((h) => h.id));
      for (const id of onPath) {
        const t = tuples.get(id);
        if (t && !kept.has(id) && (!titlePaper || t.paperId === titlePaper)) scored.push({ tuple: t, score: 0.2, onPath: true });
      }
      return { hits: scored.sort((a, b) => b.score - a.score || (a.tuple.id < b.tuple.id ? -1 : 1)).slice(0, MAX_TUPLES), reranker: note };
    },
    (h) => ({ reranker: h.reranker, tuples: h.hits.length, top: h.hits.slice(0, 3).map((x) => x.tuple.text) }),
  ).then((r) => ({ hits: r.hits, keywordWeights: weights }));
}

/**
 * The `limit` best of the kept candidates (`kept` lists candidate numbers: `idOf` names them, `scores` scores them),
 * best first, ties by id: the same as sorting them all and cutting, without sorting tens of thousands by a
 * comparator. The score of the last one in (`floor`) is found by selection over the scores (kthLargest); what scores
 * above it is in, and of the candidates at it, the first by id. `idRank`, when given, orders the candidates as their
 * ids do (distinct integers, the tuples' ordinals): thousands of a hub's tuples can tie at the floor, and sorting
 * their ids as strings took longer than the rest of the cut.
 */
export function topCandidates(
  idOf: (candidate: number) => string,
  scores: ArrayLike<number>,
  kept: ArrayLike<number>,
  limit: number,
  idRank?: ArrayLike<number>,
): { id: string; s: number }[] {
  const byScore = (a: { id: string; s: number }, b: { id: string; s: number }) => b.s - a.s || (a.id < b.id ? -1 : 1);
  if (kept.length <= limit) return Array.from(kept, (i) => ({ id: idOf(i), s: scores[i] })).sort(byScore);
  const floor = kthLargest(
    Float64Array.from(kept, (i) => scores[i]),
    limit,
  );
  const out: { id: string; s: number }[] = [];
  const atFloor: number[] = [];
  for (let j = 0; j < kept.length; j++) {
    const i = kept[j];
    if (scores[i] > floor) out.push({ id: idOf(i), s: scores[i] });
    else if (scores[i] === floor) atFloor.push(i);
  }
  const room = limit - out.length;
  if (idRank) {
    // The `room` lowest ranks at the floor: a numeric sort of the ranks, then the candidates up to the last in.
    const ranks = Float64Array.from(atFloor, (i) => idRank[i]).sort();
    const last = ranks[Math.min(room, ranks.length) - 1];
    for (const i of atFloor) if (idRank[i] <= last) out.push({ id: idOf(i), s: floor });
  } else {
    // Default string order is the order of `<` on ids.
    for (const id of atFloor
      .map((i) => idOf(i))
      .sort()
      .slice(0, room))
      out.push({ id, s: floor });
  }
  return out.sort(byScore);
}

/** Method D's keyword selection: lemmas of nouns, proper nouns, adjectives and verbs, longer than two characters. */
export function keywordLemmas(question: string): string[] {
  const doc = tagger()(question);
  const words = doc.match('(#Noun|#ProperNoun|#Adjective|#Verb)').not('(#Auxiliary|#Copula|#Pronoun|#QuestionWord)').out('array') as string[];
  const lemmas = words.flatMap((w) => w.split(/\s+/)).map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''));
  return [...new Set(lemmas.filter((w) => w.length > 2).map((w) => (/^[a-z]+$/i.test(w) && w === w.toLowerCase() ? stemmer(w) : w.replace(/[−–]/g, '-'))))];
}

export async function graphKeywordRetrieve(source: GraphCandidateSource, question: string, budget = 60): Promise<{ keywords: string[]; hits: ScoredTuple[] }> {
  const keywords = keywordLemmas(question)
    .filter((k) => !QUESTION_WORDS.has(k.toLowerCase()))
    .slice(0, MAX_GRAPH_KEYWORDS);
  const postings = await source.termPostings([...new Set([...keywords, ...keywords.map((k) => k.toLowerCase())])], Infinity);
  const counts = new Map<string, number>();
  for (const k of keywords) for (const id of postings.get(k) ?? postings.get(k.toLowerCase()) ?? []) counts.set(id, (counts.get(id) ?? 0) + 1);
  const chosen = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, budget);
  const tuples = await source.tuples(chosen.map(([id]) => id));
  const hits = chosen.filter(([id]) => tuples.has(id)).map(([id, n]) => ({ tuple: tuples.get(id)!, score: n / Math.max(keywords.length, 1), onPath: false }));
  return { keywords, hits };
}
