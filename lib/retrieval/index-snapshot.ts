import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import { type LocalHashEmbedder, localFitOf } from '../embedding/local-hash.ts';
import { type AbbreviationCounts, abbreviationsFrom } from './abbreviations.ts';
import { DenseIndex, type DenseView } from './dense-index.ts';
import { assembleIndex, type IndexCore, type RetrievalIndex } from './index.ts';
import type { TextEmbedder } from '../embedding/embedder.ts';
import { LexicalIndex, type LexicalIndexData } from './lexical-index.ts';
import type { DenseParts } from './passage-vectors.ts';
import { type PackedParagraphs, unpackParagraphs } from './packed-paragraphs.ts';
import { vocabularyFrom } from './spelling.ts';
import { type GraphIndex, graphIndexFrom, type StoredGraphIndex, storedGraphFromPages, storedGraphIndex } from './graph-index.ts';
import { internStrings } from '../common/intern.ts';
import { lazyOnce } from '../common/lazy.ts';
import { sourceHash } from '../common/source-hash.ts';
import { deserializeCopying, fileOf, type Kind } from './snapshot-files.ts';

/**
 * The retrieval index kept on disk, so that a restart reads it back instead of building it again (the shared corpus:
 * about 20 s to build — paragraph facets, BM25, vocabulary, the n-gram fit for names, the dense vectors from the
 * database — against a few seconds to read). One file per data folder, written with V8's serializer (Maps, Sets and
 * typed arrays as they are, BM25's postings among them), replaced atomically.
 *
 * A snapshot is used only under the key it was written for: the corpus stamp (bumped by every write), the embedder
 * configuration and a hash of the code that builds indexes (lib/), so a corpus change, another embedder or new code
 * never reads an index made otherwise. The embedders' own ids are checked again once they are loaded (a model that
 * cannot be had falls back to the n-gram stand-in, whose vectors the snapshot does not hold).
 */
export interface IndexSnapshot {
  key: string;
  core: Omit<IndexCore, 'paragraphs' | 'packedParagraphs' | 'paragraphLexical' | 'titles' | 'abbreviations' | 'vocabulary'> & {
    paragraphs: PackedParagraphs;
    paragraphLexical: LexicalIndexData;
    titles: LexicalIndexData;
    abbreviations: AbbreviationCounts;
    vocabulary: ReadonlyMap<string, number>;
  };
  dense: { raw: DenseData; json: DenseData | null };
  /** The passages' and the names' embedder ids the index was built with. */
  embedderId: string;
  nameEmbedderId: string;
  /**
   * What a retrieval worker needs to know of the passages' embedder to stand in for it without the server thread
   * (which may still be opening its database when the worker reads this): its size, weight in fusion, and whether
   * questions are embedded apart from passages.
   */
  embedderTraits: { dimensions: number; fusionWeight?: number; query: boolean; nameDimensions: number };
  /** The corpus's records when the index was built (the key's corpus stamp changes with them). */
  recordCount: number;
  /** The names embedder's fit when it is the local n-gram one (refitting it reads the whole corpus). */
  nameFit: ReturnType<LocalHashEmbedder['fit']> | null;
}

type DenseData = ReturnType<DenseIndex['toData']>;

/** A space's vectors as a snapshot keeps them: only an index that holds them in the process has them to give. */
function denseData(view: DenseView): DenseData {
  if (!(view instanceof DenseIndex)) throw new Error('a snapshot is taken of an index whose vectors are in the process');
  return view.toData();
}

/** The key of the index for this corpus stamp and embedder configuration under this code; null: snapshots are off. */
export function snapshotKey(corpusVersion: string, embedderChoice: string): string | null {
  const code = sourceHash();
  return code ? createHash('sha256').update(`${code}|${corpusVersion}|${embedderChoice}`).digest('hex').slice(0, 24) : null;
}

/**
 * The key of the records index of this corpus stamp under this code: the records index reads no vectors, so it is
 * kept across embedder configurations (the import's records stage writes it before any index is built:
 * lib/serving/record-shards.ts). Null: snapshots are off.
 */
export const recordsKey = (corpusVersion: string): string | null => snapshotKey(corpusVersion, 'records');

/** What a snapshot keeps of an index (which must be fully embedded: no pending embedder). */
export function indexSnapshot(index: RetrievalIndex, key: string): IndexSnapshot {
  return {
    key,
    core: {
      version: index.version,
      papers: index.papers,
      paperByDoi: index.paperByDoi,
      paragraphs: index.packedParagraphs,
      chunks: index.chunks,
      chunkOf: index.chunkOf,
      paragraphLexical: index.paragraphLexical.toData(),
      titles: index.titles.toData(),
      abbreviations: index.abbreviations.counts,
      vocabulary: index.vocabulary.counts,
      linkedNames: index.linkedNames,
      materialAbbreviations: index.materialAbbreviations,
    },
    dense: { raw: denseData(index.raw.dense), json: index.json.dense === index.raw.dense ? null : denseData(index.json.dense) },
    embedderId: index.embedderId,
    nameEmbedderId: index.nameEmbedder.id,
    embedderTraits: {
      dimensions: index.embedder.dimensions,
      ...(index.embedder.fusionWeight !== undefined ? { fusionWeight: index.embedder.fusionWeight } : {}),
      query: !!index.embedder.embedQuery,
      nameDimensions: index.nameEmbedder.dimensions,
    },
    recordCount: index.records.size,
    nameFit: localFitOf(index.nameEmbedder),
  };
}

/** The core and dense parts a snapshot holds, ready for `assembleIndex`. */
export function snapshotParts(s: IndexSnapshot): { core: IndexCore; dense: DenseParts } {
  const dense = (d: DenseData) => DenseIndex.fromData(d);
  const raw = dense(s.dense.raw);
  return {
    core: {
      ...s.core,
      paragraphs: unpackParagraphs(s.core.paragraphs),
      packedParagraphs: s.core.paragraphs,
      paragraphLexical: LexicalIndex.fromData(s.core.paragraphLexical),
      titles: LexicalIndex.fromData(s.core.titles),
      abbreviations: abbreviationsFrom(s.core.abbreviations),
      vocabulary: vocabularyFrom(s.core.vocabulary),
    },
    dense: { raw, json: s.dense.json ? dense(s.dense.json) : raw },
  };
}

/** Writes `value` under `key` into `dir` (written aside, then renamed over), and removes the older ones of its kind. */
function store(dir: string, kind: Kind, key: string, value: unknown): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = fileOf(dir, kind, key);
  // Its own partial file: the server's thread and its retrieval worker share a pid and may store one key at once.
  const partial = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.partial`;
  fs.writeFileSync(partial, v8.serialize(value));
  fs.renameSync(partial, file);
  for (const f of fs.readdirSync(dir))
    if (f.startsWith(`${kind}-`) && path.join(dir, f) !== file && !f.endsWith('.partial')) fs.rmSync(path.join(dir, f), { force: true });
  return file;
}

/**
 * What `dir` holds under `key`, or null; one that cannot be read (cut short, another Node version) is removed and
 * reported. `shareStrings`: one copy of each repeated word, name and key (see internStrings; the deserializer makes
 * one per occurrence) — for the thread that keeps the index; about 0.5 s more on the shared corpus.
 */
function read<T>(dir: string, kind: Kind, key: string, valid: (v: T) => boolean, log: (line: string) => void, shareStrings = false): T | null {
  const file = fileOf(dir, kind, key);
  if (!fs.existsSync(file)) return null;
  try {
    const decoded = deserializeCopying(fs.readFileSync(file));
    const value = (shareStrings ? internStrings(decoded) : decoded) as T;
    if (!valid(value)) throw new Error('it does not hold an index of this key');
    return value;
  } catch (error) {
    log(`the ${kind} index stored in ${file} could not be read (${(error as Error).message}); it is built again`);
    fs.rmSync(file, { force: true });
    return null;
  }
}

/** Writes the snapshot into `dir`, and removes the data folder's older ones. */
export const saveSnapshot = (dir: string, snapshot: IndexSnapshot): string => store(dir, 'retrieval', snapshot.key, snapshot);

/**
 * The snapshot stored in `dir` under `key`, or null when there is none. One that cannot be read is removed and
 * reported through `log`: the index is then built as without one. `shareStrings` as for `read`: a thread that
 * keeps the index asks for it, one that lets go of it once the retrieval workers serve does not.
 */
export const loadSnapshot = (dir: string, key: string, log: (line: string) => void = () => {}, shareStrings = false): IndexSnapshot | null =>
  read<IndexSnapshot>(dir, 'retrieval', key, (s) => s?.key === key && s.core?.paragraphs?.sentenceAt instanceof Uint32Array, log, shareStrings);

/**
 * The index with the parts it makes on first use read from `dir` when they were kept there under `key`, else made
 * as before and then kept: the graph index (the shared corpus: about 6 s to build, 0.2 s to read back: see
 * StoredGraphIndex) and the records index (written there by the import's records stage, else built into its file
 * there, which a restart opens: record-set.ts; under its own key, see recordsKey).
 */
export function withKeptParts(index: RetrievalIndex, dir: string, key: string, log: (line: string) => void = () => {}): RetrievalIndex {
  const build = index.graph;
  const get = lazyOnce(async (): Promise<GraphIndex> => {
    const absent = !fs.existsSync(fileOf(dir, 'graph', key));
    const kept = read<StoredGraphIndex & { key?: string }>(dir, 'graph', key, (g) => g?.key === key && g.vectors instanceof Float32Array, log);
    if (kept) {
      try {
        return graphIndexFrom(kept);
      } catch (error) {
        log(`the graph index stored in ${dir} could not be read (${(error as Error).message}); it is built again`);
      }
    }
    const built = await build.get();
    // Written after the question that asked for it has its graph (half a second of serialising).
    setTimeout(() => {
      try {
        // Not again when it was absent and has been kept meanwhile (a first start's hand-over, keepGraphIndex).
        if (!absent || !fs.existsSync(fileOf(dir, 'graph', key))) storeGraph(dir, key, built);
      } catch (error) {
        log(`the graph index could not be stored (${(error as Error).message}); the next start builds it again`);
      }
    }, 0);
    return built;
  });
  return { ...withKeptRecords(index, dir), graph: { get } };
}

/**
 * The index with its records index read from `dir` when it is kept there (the import's records stage writes it),
 * else built into it on first use. Also for an index that is not stored (the model still embedding): the records
 * index holds no vectors.
 */
export function withKeptRecords(index: RetrievalIndex, dir: string): RetrievalIndex {
  const key = recordsKey(index.version);
  return key ? { ...index, records: index.records.keptIn(fileOf(dir, 'records', key)) } : index;
}

/**
 * Keeps the graph index of the tuples `loadPage` gives (see storedGraphFromPages) in `dir` under `key`, unless it is
 * kept there already: retrieval workers then read it (withKeptParts) instead of each asking this thread for every
 * tuple and building one.
 */
export async function keepGraphIndex(dir: string, key: string, loadPage: Parameters<typeof storedGraphFromPages>[0], names: TextEmbedder): Promise<void> {
  if (fs.existsSync(fileOf(dir, 'graph', key))) return;
  const stored = await storedGraphFromPages(loadPage, names);
  if (!fs.existsSync(fileOf(dir, 'graph', key))) store(dir, 'graph', key, { key, ...stored });
}

/** A graph index as a data folder keeps it, under its key. */
const storeGraph = (dir: string, key: string, graph: GraphIndex) => store(dir, 'graph', key, { key, ...storedGraphIndex(graph) });

/** The index a snapshot holds, with the embedders it was built with and the loaders of its lazy parts. */
export function restoreIndex(
  s: IndexSnapshot,
  lazies: Parameters<typeof assembleIndex>[2],
  e: { embedder: TextEmbedder; nameEmbedder: TextEmbedder; buildSeconds: number },
): RetrievalIndex {
  const { core, dense } = snapshotParts(s);
  return assembleIndex(core, dense, lazies, { ...e, embedderNote: null, pendingEmbedder: null });
}
