import path from 'node:path';
import { type Admission, createAdmission } from '../common/admission.ts';
import type { AssayConfig } from '../config.ts';
import { chatModel, rerankingModel } from '../ai/providers.ts';
import { providerTupleReranker } from '../retrieval/graph-search.ts';
import type { Database } from '../db/database.ts';
import { corpusLoaders, corpusVersion, loadRetrievalCorpus } from '../db/retrieval-corpus.ts';
import { createEmbedders, embedderChoice, preloadModel } from '../embedding/select.ts';
import { hasSnapshot, indexSnapshot, loadSnapshot, restoreIndex, saveSnapshot, snapshotKey, withKeptGraph } from '../retrieval/index-snapshot.ts';
import { buildRetrievalIndex, type RetrievalIndex, withDense } from '../retrieval/index.ts';
import { embedPassages } from '../retrieval/passage-vectors.ts';
import { searchDocsCurrent, syncSearchDocs, withDatabaseSearch } from '../retrieval/lexical-sources/database.ts';
import type { LexicalDoc } from '../retrieval/lexical-index.ts';
import { retrieve } from './run.ts';
import { neo4jGraphSources } from '../retrieval/graph-sources/neo4j.ts';
import { neo4jDriver } from '../graph/stores/neo4j.ts';
import type { PipelineName } from './registry.ts';
import type { RetrievalResult, RetrieveOptions } from './types.ts';
import { llmReformulator, rulesReformulator, type Reformulator } from '../retrieval/reformulate.ts';

/**
 * The retrieval service used by route handlers, server actions, the CLI and tests: builds the index once per
 * corpus version (rebuilt after an import or re-structuring changes the stamp), with the configured embedder
 * and reformulator. Concurrent callers share one build.
 */
export interface RetrievalService {
  index(): Promise<RetrievalIndex>;
  retrieve(question: string, pipeline: PipelineName, opts?: RetrieveOptions): Promise<RetrievalResult>;
  reformulator: Reformulator;
  /** The configured options every retrieval gets (reformulator, re-ranker, whether a model exists). */
  options: RetrieveOptions;
}

export function configuredReformulator(cfg: AssayConfig): Reformulator {
  const chat = cfg.reformulation === 'llm' ? chatModel(cfg) : null;
  return chat ? llmReformulator(chat) : rulesReformulator;
}

export function createRetrievalService(
  db: Database,
  cfg: AssayConfig,
  opts: {
    onStage?: (s: string) => void;
    /**
     * Serve at once when the embedding model has not embedded the corpus yet (the app): the index is built on the
     * n-gram stand-in, the model embeds the passages in the background (stored batch by batch, so a stop loses
     * little), and the index is swapped for the model's when it has finished. The CLI waits for the model instead.
     */
    background?: boolean;
    /** Questions wait their turn in this line (the app's server; the CLI asks one at a time and needs none). */
    admission?: Admission;
    /**
     * Where the index is kept between runs (lib/retrieval/index-snapshot.ts): read back at the next start instead of
     * built, when the corpus, the embedders and the code are the same. None: always built.
     */
    snapshotDir?: string;
  } = {},
): RetrievalService {
  let current: { version: string; index: Promise<RetrievalIndex> } | null = null;
  const log = (line: string) => console.log(`[assay] ${line}`);
  // Written after the build has been handed out (half a second of serialising), never in the way of a question.
  const keep = (key: string, index: RetrievalIndex) =>
    setTimeout(() => {
      try {
        if (opts.snapshotDir) saveSnapshot(opts.snapshotDir, indexSnapshot(index, key));
      } catch (error) {
        log(`the retrieval index could not be stored (${(error as Error).message}); the next start builds it again`);
      }
    }, 0);
  // With ASSAY_SEARCH=database, paragraph search runs in the database over documents each build writes there.
  const inDatabase = cfg.search === 'database';
  const serve = (index: RetrievalIndex) => (inDatabase ? withDatabaseSearch(index, db) : index);
  const reformulator = configuredReformulator(cfg);
  const reranking = rerankingModel(cfg);
  const tupleReranker = reranking ? providerTupleReranker(reranking.model, reranking.id) : undefined;
  const index = async () => {
    const version = await corpusVersion(db);
    if (!current || current.version !== version) {
      // Where this version's index is kept, and under which key (none: always built).
      const key = opts.snapshotDir ? snapshotKey(version, embedderChoice(cfg)) : null;
      const place = opts.snapshotDir && key ? { dir: opts.snapshotDir, key } : null;
      const keepAndServe = (index: RetrievalIndex) => {
        if (!place) return serve(index);
        keep(place.key, index);
        return serve(withKeptGraph(index, place.dir, place.key, log));
      };
      const building = (async () => {
        const t0 = performance.now();
        // The model's session loads on its thread while this one reads the stored index.
        if (place && hasSnapshot(place.dir, place.key)) preloadModel(cfg);
        const stored = place ? loadSnapshot(place.dir, place.key, log) : null;
        // The database's documents must be this version's too (they are written by a build, not by a read-back).
        if (stored && place && (!inDatabase || (await searchDocsCurrent(db, stored.core.version)))) {
          opts.onStage?.('reading the stored index');
          const e = await createEmbedders(db, cfg, () => [], log, {}, stored.nameFit);
          if (e.passages.id === stored.embedderId && e.names.id === stored.nameEmbedderId) {
            const lazies = await corpusLoaders(db);
            const index = restoreIndex(stored, lazies, { embedder: e.passages, nameEmbedder: e.names, buildSeconds: (performance.now() - t0) / 1000 });
            log(`retrieval index read from its snapshot in ${index.buildSeconds.toFixed(1)} s`);
            return serve(withKeptGraph(index, place.dir, place.key, log));
          }
          log(`the stored index was built with ${stored.embedderId}, the embedder now is ${e.passages.id}: it is built again`);
        }
        opts.onStage?.('loading corpus');
        const corpus = await loadRetrievalCorpus(db);
        opts.onStage?.('fitting embedder');
        const embedders = await createEmbedders(db, cfg, () => corpus.paragraphs.map((p) => p.text), log);
        const built = await buildRetrievalIndex(corpus, embedders.passages, {
          onStage: opts.onStage,
          nameEmbedder: embedders.names,
          embedderNote: embedders.note,
          ...(opts.background && embedders.passages !== embedders.names ? { whileCold: embedders.names } : {}),
          ...(inDatabase ? { onParagraphDocs: (docs: LexicalDoc[], v: string) => syncSearchDocs(db, v, docs) } : {}),
        });
        return built.pendingEmbedder ? serve(built) : keepAndServe(built);
      })();
      current = { version, index: building };
      building.then(
        (built) => {
          const model = built.pendingEmbedder;
          if (!model) return;
          console.log(`[assay] ${built.embedderNote}`);
          const t0 = performance.now();
          embedPassages(built, model)
            .then((dense) => {
              // Swapped in only if the corpus has not changed meanwhile (a newer build embeds its own passages).
              if (current?.version === version) current = { version, index: Promise.resolve(keepAndServe(withDense(built, model, dense))) };
              console.log(`[assay] ${model.id} embedded the corpus in ${((performance.now() - t0) / 1000).toFixed(0)} s: dense search now runs on it`);
            })
            .catch((error) =>
              console.log(`[assay] ${model.id} could not embed the corpus (${(error as Error).message}): dense search stays on the n-gram stand-in`),
            );
        },
        () => {},
      );
      building.catch(() => {
        if (current?.index === building) current = null; // a failed build is retried by the next caller
      });
    }
    return current.index;
  };
  // With NEO4J_URI the graph pipelines read their candidates from Neo4j (after `npm run graph:sync`).
  const graphSource = cfg.neo4j ? neo4jGraphSources(neo4jDriver(cfg.neo4j), { database: cfg.neo4j.database ?? undefined }) : undefined;
  const options: RetrieveOptions = { reformulator, tupleReranker, graphSource, modelConfigured: !!cfg.llm, admission: opts.admission };
  return {
    index,
    reformulator,
    options,
    retrieve: async (question, pipeline, o = {}) => retrieve(await index(), question, pipeline, { ...options, ...o }),
  };
}

// A configuration's value, serialised once per configuration object (every request asks for the service).
const configKeys = new WeakMap<AssayConfig, string>();

// Kept on globalThis so Next.js dev reloads keep the built index; one service per database and configuration.
const services = ((globalThis as unknown as { __assayRetrieval?: WeakMap<Database, { key: string; service: RetrievalService }> }).__assayRetrieval ??=
  new WeakMap());

/**
 * The app's retrieval service on this database and configuration, built once and shared by every request. The
 * configuration is compared by value: Next.js loads the server start (which warms the indexes after an import) and
 * the route handlers as separate module instances, each with its own configuration object of the same settings.
 */
export function getRetrievalService(db: Database, cfg: AssayConfig): RetrievalService {
  let key = configKeys.get(cfg);
  if (key === undefined) configKeys.set(cfg, (key = JSON.stringify(cfg)));
  let entry = services.get(db);
  if (!entry || entry.key !== key)
    services.set(
      db,
      (entry = {
        key,
        service: createRetrievalService(db, cfg, { background: true, admission: createAdmission(cfg.admission), snapshotDir: path.join(cfg.dataDir, 'index') }),
      }),
    );
  return entry.service;
}
