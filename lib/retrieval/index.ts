import type { RetrievalCorpus, CorpusPaper } from '../db/retrieval-corpus.ts';
import { splitSentences } from '../structure/sentences.ts';
import { forgetPlainTerms, formulaKey, plainTerms, structuredTerms, textFacets } from '../structure/terms.ts';
import type { DenseView } from './dense-index.ts';
import { percentDone, type TextEmbedder } from '../embedding/embedder.ts';
import { type DenseParts, embedPassages, passageTexts } from './passage-vectors.ts';
import { LexicalIndex, type LexicalView } from './lexical-index.ts';
import { type PackedParagraphs, ParagraphPacker, unpackParagraphs } from './packed-paragraphs.ts';
import { lazyGraphIndex, type LazyGraphIndex } from './graph-index.ts';
import { type Facets, facetTerms, materialTerms, quantityFacet } from './facets.ts';
import type { IndexedParagraph } from './indexed.ts';
import { lazyRecordIndex, type LazyRecordIndex, paperByDoiOf } from './record-index.ts';
import { type Abbreviations, learnAbbreviationsSliced } from './abbreviations.ts';
import { type MaterialAbbreviation, materialAbbreviationMap, spelledAbbreviationMap } from './material-abbreviations.ts';
import { learnVocabularySliced, type Vocabulary } from './spelling.ts';
import { evidenceText, isEvidenceParagraph } from '../ingest/non-content.ts';
import { timeSlicer } from '../common/yield.ts';
import { propertyNameTerms, tableRowOf } from './table-rows.ts';
import { type LinkedName, linkedNameMap } from './linked-names.ts';

/**
 * The in-process retrieval index over the whole corpus, built from the relational store in one pass:
 * - raw paragraphs: BM25 on plain terms + dense vectors of the paragraph text (the conventional baseline);
 * - structured paragraphs ("JSON"): BM25 on plain + canonical terms + the paragraph's structure (role, method,
 *   entities), dense vectors of the text under its paper's title, and per-paragraph facets for filters and boosts
 *   (the dense vectors of all three spaces: lib/retrieval/passage-vectors.ts);
 * - section chunks (VectorRAG of method B): paragraphs merged by paper and section, dense only;
 * - records: imported recipes and experiments rendered through the record mapping, BM25 + facets.
 */

export interface IndexedPaper extends CorpusPaper {
  titleTerms: string[];
  paragraphIds: string[];
}

/** A section chunk: its text is its paragraphs' joined by newlines, made when it is cited (`chunkEvidence`), not kept twice. */
export interface IndexedChunk {
  id: string;
  paperId: string;
  paragraphIds: string[];
  section: string | null;
}

/** The index the pipelines search: its core (what a snapshot keeps, see `IndexCore`), dense vectors and lazy parts. */
export interface RetrievalIndex extends IndexCore {
  embedderId: string;
  /** Why passages are not embedded by the configured model, when they are not (see lib/embedding/select.ts). */
  embedderNote: string | null;
  buildSeconds: number;
  /** Built on first use (only the records pipeline needs it), so the paragraph pipelines are ready sooner. */
  records: LazyRecordIndex;
  /** The knowledge graph, loaded on first use of a graph pipeline. */
  graph: LazyGraphIndex;
  raw: { lexical: LexicalView; dense: DenseView };
  json: { lexical: LexicalView; dense: DenseView };
  embedder: TextEmbedder;
  /** Entity names (the graph's canonical retrieval): never the local model, whose cosine does not tell names apart. */
  nameEmbedder: TextEmbedder;
  /**
   * The configured embedder when it had not embedded every passage yet and `whileCold` embedded them instead: the
   * caller embeds them with it in the background (`embedPassages`) and swaps the dense parts in (`withDense`).
   */
  pendingEmbedder: TextEmbedder | null;
}

const CHUNK_WORDS = 350;

/**
 * Facets of a paragraph: what its text says plus the entities the structuring stage found (keys and formulas).
 * Quantities are re-read from the text rather than taken from the stored mentions, which keep only a min–max
 * per mention and would turn a list ("0.51, 0.48 and 0.42 Ω cm2") into a range that matches everything between.
 */
function paragraphFacets(
  text: string,
  entities: { key: string | null; formula: string | null }[],
): { facets: Facets; sentences: Facets[]; sentenceSpans: { start: number; end: number }[] } {
  // Facets per sentence (for "is the claim stated in one sentence?"); the paragraph's are their union.
  const split = splitSentences(text);
  const sentences = split.map((s) => {
    const f = textFacets(s.text);
    return {
      materials: materialTerms(f.formulas, f.materials),
      properties: new Set(f.properties),
      quantities: f.quantities.map((q) => quantityFacet({ ...q, start: q.start + s.start })),
    };
  });
  const materials = new Set(sentences.flatMap((x) => [...x.materials]));
  for (const e of entities) {
    const fk = e.formula ? formulaKey(e.formula) : null;
    if (fk) materials.add(`f:${fk}`);
    else if (e.key && !e.key.startsWith('name:')) materials.add(`m:${e.key}`);
  }
  return {
    facets: { materials, properties: new Set(sentences.flatMap((x) => [...x.properties])), quantities: sentences.flatMap((x) => x.quantities) },
    sentences,
    sentenceSpans: split.map((x) => ({ start: x.start, end: x.end })),
  };
}

export async function buildRetrievalIndex(
  corpus: RetrievalCorpus,
  embedder: TextEmbedder,
  opts: {
    onStage?: (stage: string) => void;
    nameEmbedder?: TextEmbedder;
    embedderNote?: string | null;
    /** Embeds the passages while `embedder` has not yet embedded them all (the app's server), see `pendingEmbedder`. */
    whileCold?: TextEmbedder;
  } = {},
): Promise<RetrievalIndex> {
  const t0 = performance.now();
  const stage = opts.onStage ?? (() => {});
  const papers = new Map<string, IndexedPaper>();
  // The records index reads a record's paper by DOI through the same map (its shards make their own: record-index.ts).
  const paperByDoi = paperByDoiOf(corpus.papers);
  const tablesOf = new Map<string, unknown>();
  for (const { tables, ...p } of corpus.papers) {
    if (tables) tablesOf.set(p.id, tables);
    papers.set(p.id, { ...p, titleTerms: p.title ? plainTerms(p.title) : [], paragraphIds: [] });
  }
  const entitiesBy = groupBy(corpus.entities, (e) => e.paragraphId);

  stage('paragraphs');
  // Each paragraph is packed and indexed as it is read: its facets and terms are not all held at once.
  const packer = new ParagraphPacker();
  const lexical = LexicalIndex.builder(PARAGRAPH_FIELDS);
  const titleTermsCache = new Map<string, string[]>();
  // The server builds this while it answers pages: every loop below gives the event loop a turn every 10 ms.
  const slice = timeSlicer();
  for (const p of corpus.paragraphs) {
    await slice();
    const paper = papers.get(p.paperId);
    // Author blocks, acknowledgements, funding and the like are never evidence.
    if (!paper || !isEvidenceParagraph(p)) continue;
    paper.paragraphIds.push(p.id);
    // A first paragraph that runs title, authors and abstract together is indexed and quoted from its abstract on:
    // the names are blanked with spaces, so offsets stay those of the stored paragraph.
    const text = evidenceText(p.text);
    const { facets, sentences, sentenceSpans } = paragraphFacets(text, entitiesBy.get(p.id) ?? []);
    packer.add({
      id: p.id,
      paperId: p.paperId,
      ordinal: p.ordinal,
      externalId: p.externalId,
      section: p.section,
      text,
      role: p.role,
      method: p.method,
      facets,
      sentences,
      sentenceSpans,
      ...(p.kind === 'table' ? tableRowOf(tablesOf.get(p.paperId), p.externalId, text) : {}),
    });
    let title = titleTermsCache.get(p.paperId);
    if (!title) {
      title = paper.title ? structuredTerms(paper.title) : [];
      titleTermsCache.set(p.paperId, title);
    }
    const section = p.section ? plainTerms(p.section) : [];
    // A table's headers are terse ("ASR", "σ"): its row is searchable by the properties' own names as well.
    const textTerms = p.kind === 'table' ? [...plainTerms(text), ...propertyNameTerms(facets.properties)] : plainTerms(text);
    const structure = [`role:${p.role ?? 'unknown'}`, ...(p.method ? [`method:${p.method}`] : []), ...facetTerms(facets)];
    const doc = { id: p.id, fields: { text: textTerms, structure, title, section } };
    lexical.add(doc);
  }
  const packedParagraphs = packer.done();
  const paragraphs = unpackParagraphs(packedParagraphs);

  stage('chunks');
  const chunks = new Map<string, IndexedChunk>();
  const chunkOf = new Map<string, string>();
  for (const paper of papers.values()) {
    let current: IndexedChunk | null = null;
    let words = 0;
    for (const pid of paper.paragraphIds) {
      const p = paragraphs.get(pid)!;
      const n = p.text.split(/\s+/).length;
      if (!current || current.section !== p.section || words + n > CHUNK_WORDS) {
        current = { id: `${paper.id}#${chunks.size}`, paperId: paper.id, paragraphIds: [], section: p.section };
        chunks.set(current.id, current);
        words = 0;
      }
      current.paragraphIds.push(pid);
      chunkOf.set(pid, current.id);
      words += n;
    }
  }

  stage('lexical');
  const paragraphLexical = lexical.finish();
  const titles = await LexicalIndex.build(
    [...papers.values()].filter((p) => p.title).map((p) => ({ id: p.id, fields: { title: p.titleTerms } })),
    { title: 1 },
  );

  stage('vocabulary');
  const titlesAndText = [...[...papers.values()].map((p) => p.title ?? ''), ...[...paragraphs.values()].map((p) => p.text)];
  const abbreviations = await learnAbbreviationsSliced(titlesAndText, slice);
  const vocabulary = await learnVocabularySliced(titlesAndText, slice);

  stage('dense');
  const linkedNames = linkedNameMap(corpus.linkedMaterials ?? []);
  // Long forms of words ("carbon nanotubes"), not a formula the abbreviation learner also saw ("lifepo4").
  const wordUses = (short: string) => [...(abbreviations.counts.get(short) ?? [])].reduce((n, [long, uses]) => n + (long.includes(' ') ? uses : 0), 0);
  // What a text defines first; what the records' targets spell for the short forms no text defines (nor by words).
  const materialAbbreviations = materialAbbreviationMap(corpus.abbreviatedFormulas ?? [], wordUses);
  for (const [short, spelled] of spelledAbbreviationMap(corpus.recordTargets ?? []))
    if (!materialAbbreviations.has(short) && !abbreviations.counts.has(short)) materialAbbreviations.set(short, spelled);
  const core: IndexCore = {
    version: corpus.version,
    papers,
    paperByDoi,
    paragraphs,
    packedParagraphs,
    chunks,
    chunkOf,
    paragraphLexical,
    titles,
    abbreviations,
    vocabulary,
    linkedNames,
    materialAbbreviations,
  };
  // The app does not wait for a model's first pass over the corpus (minutes): it searches on the stand-in meanwhile.
  const cold = opts.whileCold && embedder.missing ? await embedder.missing(passageTexts(core).all()) : 0;
  const used = cold > 0 && opts.whileCold ? opts.whileCold : embedder;
  const dense = await embedPassages(core, used);
  forgetPlainTerms();
  return assembleIndex(core, dense, corpus, {
    embedder: used,
    nameEmbedder: opts.nameEmbedder ?? embedder,
    embedderNote:
      used === embedder
        ? (opts.embedderNote ?? null)
        : `${embedder.id} is embedding ${cold} passages for the first time, in the background: dense search runs on the character n-gram stand-in until it has finished`,
    pendingEmbedder: used === embedder ? null : embedder,
    buildSeconds: (performance.now() - t0) / 1000,
  });
}

/**
 * What an index says of its embedder at this moment: while the model embeds the corpus in the background, how far
 * it has got (every question's trace carries this), else the note it was built with.
 */
export function embedderNoteNow(index: Pick<RetrievalIndex, 'embedderNote' | 'pendingEmbedder' | 'embedderId'>): string | null {
  const p = index.pendingEmbedder?.progress?.();
  if (!index.pendingEmbedder || !p?.total) return index.embedderNote;
  const model = index.pendingEmbedder.id;
  const passages = `${p.done.toLocaleString('en')} of ${p.total.toLocaleString('en')} passages`;
  if (p.papers) {
    const covers = `semantic search covers ${percentDone(p.papers)}% of papers (${p.papers.done.toLocaleString('en')} of ${p.papers.total.toLocaleString('en')}; ${model} has embedded ${passages})`;
    return index.embedderId === model
      ? `${covers}: dense search runs on ${model} over those papers, and the others are found by their words until their vectors land`
      : `${covers}: dense search runs on the character n-gram stand-in until the first papers' vectors land`;
  }
  return `semantic search is incomplete: ${model} has embedded ${passages} (${percentDone(p)}%) in the background; until it has finished, dense search runs on the character n-gram stand-in`;
}

/**
 * One BM25 index over paragraphs; the raw pipelines search its text fields, the structured ones add the structure
 * field (role, method, canonical materials, properties and values).
 */
const PARAGRAPH_FIELDS = { text: 1, structure: 1.5, title: 1.5, section: 0.3 };

/** The fields the raw pipelines search (the json ones add the structure terms). */
export const RAW_FIELDS = ['text', 'title', 'section'];
/** The paragraph index's fields each search space reads, in the order its scorer reads them. */
export const SPACE_FIELDS = { raw: RAW_FIELDS, json: ['text', 'structure', 'title', 'section'] };

/** What an index is made of, apart from its dense vectors and lazy parts: what a snapshot keeps (index-snapshot.ts). */
export interface IndexCore {
  version: string;
  papers: Map<string, IndexedPaper>;
  paperByDoi: Map<string, string>;
  /** Read from `packedParagraphs`: each paragraph's facets, sentences and spans are unpacked when first used. */
  paragraphs: Map<string, IndexedParagraph>;
  /** The paragraphs packed into typed arrays (packed-paragraphs.ts), as a snapshot stores them. */
  packedParagraphs: PackedParagraphs;
  chunks: Map<string, IndexedChunk>;
  /** The section chunk each paragraph belongs to (chunks are scored by their closest paragraph). */
  chunkOf: Map<string, string>;
  /** The one BM25 index over paragraphs that `raw.lexical` and `json.lexical` view. */
  paragraphLexical: LexicalIndex;
  titles: LexicalIndex;
  /** Abbreviations the corpus defines, for query expansion. */
  abbreviations: Abbreviations;
  /** The corpus's words, for correcting typos in questions. */
  vocabulary: Vocabulary;
  /** Aliases of materials linked to Wikidata, read as the material's label in questions (linked-names.ts). */
  linkedNames?: Map<string, LinkedName>;
  /** Short forms the corpus defines for formulas ("LFP" → LiFePO4), read as them in questions. */
  materialAbbreviations?: Map<string, MaterialAbbreviation>;
}

/** The index of a core (built, or read from a snapshot), its dense parts, and the loaders of its lazy parts. */
export function assembleIndex(
  core: IndexCore,
  dense: DenseParts,
  lazies: Pick<RetrievalCorpus, 'recordCount' | 'loadRecords' | 'loadTuples'>,
  e: Pick<RetrievalIndex, 'embedder' | 'nameEmbedder' | 'embedderNote' | 'pendingEmbedder' | 'buildSeconds'>,
): RetrievalIndex {
  const { paragraphLexical } = core;
  return {
    ...core,
    ...e,
    embedderId: e.embedder.id,
    records: lazyRecordIndex(lazies.recordCount, lazies.loadRecords, core.paperByDoi),
    graph: lazyGraphIndex(lazies.loadTuples, e.nameEmbedder),
    raw: { lexical: paragraphLexical.view(RAW_FIELDS), dense: dense.raw },
    json: { lexical: paragraphLexical.view(SPACE_FIELDS.json), dense: dense.json },
  };
}

/**
 * The index with its dense parts from `embedder`: the background pass of a cold model once it has finished, or
 * (`pending`: the model still embedding, its progress read from there) the papers it has embedded so far.
 */
export function withDense(index: RetrievalIndex, embedder: TextEmbedder, dense: DenseParts, pending: TextEmbedder | null = null): RetrievalIndex {
  return {
    ...index,
    embedderId: embedder.id,
    embedderNote: pending ? index.embedderNote : null,
    pendingEmbedder: pending,
    embedder,
    raw: { ...index.raw, dense: dense.raw },
    json: { ...index.json, dense: dense.json },
  };
}

function groupBy<T>(items: T[], key: (t: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const i of items) {
    const k = key(i);
    const list = m.get(k);
    if (list) list.push(i);
    else m.set(k, [i]);
  }
  return m;
}
