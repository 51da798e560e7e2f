import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_DOCUMENT_LIMITS, type DocumentLimits } from './common/document-limits.ts';
import { type GateSettings, gateSettings } from './common/request-gate.mjs';

/**
 * All configuration, read once from the environment and validated, so that every module sees the same typed
 * values and a bad setting fails at start with a message naming the variable (the PaperQA2 Settings idea).
 */
const envSchema = z.object({
  ASSAY_DATA_DIR: z.string().min(1).default('.assay'),
  DATABASE_URL: z
    .string()
    .refine((v) => v === '' || /^postgres(ql)?:\/\//.test(v), 'must be a postgres:// or postgresql:// URL')
    .optional(),
  /** Connections each process keeps to a PostgreSQL server (its queries beyond these wait for one to free). */
  ASSAY_DATABASE_POOL: z.coerce.number().int().min(1).max(200).default(8),
  ASSAY_CORPUS: z.string().optional(),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  ASSAY_PUBLIC_URL: z.string().url().optional(),
  ASSAY_MAX_UPLOAD_MB: z.coerce.number().positive().default(512),
  ASSAY_MAX_LINE_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(64 * 1024 * 1024),
  ASSAY_IMPORT_BATCH_PAPERS: z.coerce.number().int().min(1).max(1000).default(50),
  ASSAY_EUROPEPMC_URL: z.string().url().default('https://www.ebi.ac.uk/europepmc/webservices/rest'),
  ASSAY_CROSSREF_URL: z.string().url().default('https://api.crossref.org'),
  ASSAY_OPENALEX_URL: z.string().url().default('https://api.openalex.org'),
  ASSAY_WIKIDATA_URL: z.string().url().default('https://www.wikidata.org'),
  ASSAY_CONTACT_EMAIL: z.string().email().optional(),
  ASSAY_ENRICHMENT: z.enum(['on', 'off']).default('on'),
  ASSAY_SCHOLARLY_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(300).default(15),
  ASSAY_IMPORT_LICENCES: z.string().default('cc-by,cc-by-sa,cc0,public-domain'),
  ASSAY_PDF_TABLES: z.enum(['off', 'tabula']).default('off'),
  ASSAY_STARTER_QUERY: z.string().default('("solid oxide fuel cell" OR SOFC) AND OPEN_ACCESS:y AND LICENSE:"cc by" AND SRC:PMC'),
  ASSAY_STARTER_SIZE: z.coerce.number().int().min(1).max(1000).default(40),
  ASSAY_EXTRACTOR: z.enum(['offline', 'llm']).default('offline'),
  ASSAY_LLM_BASE_URL: z.string().url().optional(),
  ASSAY_LLM_API_KEY: z.string().optional(),
  ASSAY_CHAT_MODEL: z.string().min(1).optional(),
  ASSAY_ANSWER_MODEL: z.string().min(1).optional(),
  ASSAY_JUDGE_MODEL: z.string().min(1).optional(),
  ASSAY_MAX_PARAGRAPH_CHARS: z.coerce.number().int().min(1000).default(DEFAULT_DOCUMENT_LIMITS.paragraphChars),
  ASSAY_MAX_PAPER_CHARS: z.coerce.number().int().min(10_000).default(DEFAULT_DOCUMENT_LIMITS.paperChars),
  ASSAY_MAX_PARAGRAPHS: z.coerce.number().int().min(10).default(DEFAULT_DOCUMENT_LIMITS.paragraphsPerPaper),
  ASSAY_MAX_XML_ELEMENTS: z.coerce.number().int().min(1000).default(DEFAULT_DOCUMENT_LIMITS.xmlElements),
  ASSAY_PRICE_INPUT_PER_MTOK: z.coerce.number().nonnegative().optional(),
  ASSAY_PRICE_OUTPUT_PER_MTOK: z.coerce.number().nonnegative().optional(),
  ASSAY_LLM_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(4),
  ASSAY_EMBEDDING_MODEL: z.string().min(1).optional(),
  ASSAY_LOCAL_EMBEDDER: z.enum(['model', 'ngram']).default('model'),
  ASSAY_STRUCTURING_HEADS: z.enum(['auto', 'off']).default('off'),
  ASSAY_MATERIAL_TAGGER: z.enum(['auto', 'off']).default('auto'),
  ASSAY_TRAINING_DATA: z.string().optional(),
  ASSAY_SHARED_DATA: z.string().optional(),
  ASSAY_MODEL_REPOSITORY: z.string().url().default('https://repo1.maven.org/maven2'),
  ASSAY_RERANK_MODEL: z.string().min(1).optional(),
  ASSAY_RERANK_BASE_URL: z.string().url().optional(),
  ASSAY_REFORMULATION: z.enum(['auto', 'rules', 'llm']).default('auto'),
  ASSAY_SEARCH: z.enum(['memory', 'database']).default('memory'),
  ASSAY_VECTORS: z.enum(['memory', 'database']).default('memory'),
  ASSAY_QUESTIONS: z.string().optional(),
  ASSAY_GRAPH_EXTRACTOR: z.enum(['offline', 'llm']).default('offline'),
  ASSAY_ANONYMOUS: z.enum(['reader', 'none']).default('reader'),
  ASSAY_EVALUATIONS_VISIBLE: z.enum(['signed-in', 'everyone']).default('signed-in'),
  ASSAY_ANONYMOUS_ANSWERS_PER_HOUR: z.coerce.number().int().min(0).max(100_000).default(60),
  ASSAY_AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  ASSAY_RETRIEVAL_CONCURRENCY: z.coerce.number().int().min(1).max(256).optional(),
  ASSAY_RETRIEVAL_QUEUE: z.coerce.number().int().min(1).max(10_000).default(200),
  ASSAY_RETRIEVAL_WORKERS: z.coerce.number().int().min(0).max(16).default(1),
  ASSAY_QUESTION_BUDGET_SECONDS: z.coerce.number().min(0.1).max(3_600).default(5),
  ASSAY_JOB_STALE_SECONDS: z.coerce.number().min(1).max(86_400).default(60),
  ASSAY_JOB_POLL_SECONDS: z.coerce.number().min(0.05).max(3_600).default(2),
  // Read by the server's request gate (lib/common/request-gate.mjs, `gateSettings`), checked here as there.
  ASSAY_TRUSTED_PROXIES: z.string().optional(),
  ASSAY_MAX_JSON_KB: z.string().optional(),
  ASSAY_KEEP_ALIVE_SECONDS: z.string().optional(),
  NEO4J_URI: z
    .string()
    .refine((v) => v === '' || /^(neo4j|bolt)(\+s|\+ssc)?:\/\//.test(v), 'must be a neo4j://, neo4j+s://, bolt:// or bolt+s:// URI')
    .optional(),
  NEO4J_USER: z.string().default('neo4j'),
  NEO4J_PASSWORD: z.string().optional(),
  NEO4J_DATABASE: z.string().optional(),
  ASSAY_NEO4J_CACHE_MB: z.coerce.number().min(0).max(65_536).default(256),
});

export type AssayConfig = {
  dataDir: string;
  /** PostgreSQL connection string; null selects the embedded PGlite database in `dataDir`. */
  databaseUrl: string | null;
  /** Connections this process keeps to the PostgreSQL server (ASSAY_DATABASE_POOL). */
  databasePool: number;
  /** Files or folders imported on first start when the database is empty. */
  corpusPaths: string[];
  port: number;
  /** The address people open the app at, for absolute links in shared previews (default: loopback on PORT). */
  publicUrl: string;
  maxUploadBytes: number;
  /** Longest line a JSONL reader accepts before reporting the line as an error. */
  maxLineBytes: number;
  /** What one imported document may hold (see lib/ingest/limits.ts). */
  documentLimits: DocumentLimits;
  /** New papers the import adds in one statement (lib/ingest/pipeline.ts): fewer hold the database thread for less time. */
  importBatchPapers: number;
  europePmcUrl: string;
  /** How PDF tables are read: `tabula` (Java + Tabula from Maven Central, lib/ingest/pdf-tables) or `off`. */
  pdfTables: 'off' | 'tabula';
  /**
   * The open scholarly web (lib/scholarly): Crossref and OpenAlex for paper metadata and Wikidata for entity links,
   * fetched by jobs after each import when `enrichment` is on; each call times out after `timeoutMs`; `mailto` joins the services' polite pool.
   */
  scholarly: {
    crossrefUrl: string;
    openAlexUrl: string;
    wikidataUrl: string;
    mailto: string | null;
    enrichment: 'on' | 'off';
    timeoutMs: number;
    /** Licences under which "look for papers" may import a paper (normalised: cc-by, cc-by-nc, cc0 …). */
    importLicences: string[];
  };
  starterQuery: string;
  starterSize: number;
  /** Which structuring backend runs: the offline rules (default) or a language model. */
  extractor: 'offline' | 'llm';
  /** An OpenAI-compatible endpoint; null when no model is configured (the app then never calls one). */
  llm: { baseUrl: string; apiKey: string; chatModel: string; concurrency: number } | null;
  /** The model that writes answers (the `answer` role), on the same server; defaults to the chat model. */
  answerModel: string | null;
  /**
   * What the answer model costs, in US dollars per million prompt (input) and completion (output) tokens; null when
   * not configured (answers then show their tokens but no cost: prices differ per provider and change).
   */
  answerPrice: { inputPerMTok: number; outputPerMTok: number } | null;
  /** A model that judges answers (claim verdicts, faithfulness, relevance), on the same server; none by default. */
  judgeModel: string | null;
  /** Provider embedding model on the OpenAI-compatible server; null selects the local embedder. */
  embedding: { baseUrl: string; apiKey: string; model: string } | null;
  /**
   * The local embedder for passages and questions when no provider is set: the open model (bge-small-en-v1.5, fetched
   * once from `modelRepository`, a Maven repository) or the character n-gram stand-in. Names are always embedded by
   * the n-gram embedder (or the provider): the model's cosine does not tell synonyms from distinct materials.
   */
  localEmbedder: 'model' | 'ngram';
  /**
   * The trained structuring heads (lib/structurers/heads): `auto` uses them when `npm run train:structure` (or a
   * start with the shared data present) has cached them in the data folder and the local model embeds passages;
   * `off` (the default until their effect on retrieval and answers is measured) keeps the offline rules alone.
   */
  structuringHeads: 'auto' | 'off';
  /**
   * The trained material tagger (lib/structurers/heads/material-tagger.ts): `auto` (the default) gives the materials of
   * synthesis paragraphs their roles with it when its weights are cached in the data folder (`npm run train:structure`,
   * or trained in the background at a start with labelled paragraphs at `trainingData`); it reads no encoder. `off`
   * keeps the rules' roles.
   */
  materialTagger: 'auto' | 'off';
  /**
   * Where the heads' labelled paragraphs are read at a first start (a folder laid out like ../shared/data:
   * gold/kist, records/): ASSAY_TRAINING_DATA, else ASSAY_SHARED_DATA, else ../shared/data beside the app.
   */
  trainingData: string;
  modelRepository: string;
  /** A cross-encoder re-ranker behind a `/rerank` endpoint (Cohere/Jina style: vLLM, TEI, Infinity, llama.cpp); null selects the offline re-ranker. */
  rerank: { baseUrl: string; apiKey: string; model: string } | null;
  /** Query reformulation backend: rules offline, or the chat model ("auto" = the model when one is configured). */
  reformulation: 'rules' | 'llm';
  /**
   * Where paragraph search (BM25) runs: `memory`, the in-process index (the default), or `database`, PostgreSQL's
   * full-text search over documents the index writes (lib/retrieval/lexical-sources/database.ts).
   */
  search: 'memory' | 'database';
  /**
   * Where dense search runs: `memory`, the process's vectors (the default), or `database`, pgvector over vectors the
   * index writes there (lib/retrieval/dense-sources/database.ts; PGlite has the extension, a server needs it installed).
   */
  vectors: 'memory' | 'database';
  /** Question sets (JSONL files or folders) offered on the evaluation page. */
  questionPaths: string[];
  /** Which backend extracts graph tuples from paragraphs: the offline patterns or a language model. */
  graphExtractor: 'offline' | 'llm';
  /**
   * What a visitor who is not signed in may do: `reader` (read and ask, the single-user default) or `none` (sign in
   * first). Grading always needs an expert account, imports and campaigns an admin one.
   */
  anonymous: 'reader' | 'none';
  /** Who sees evaluation runs, their questions and gold answers: signed-in accounts (the default) or everyone. */
  evaluationsVisible: 'signed-in' | 'everyone';
  /** Answers an anonymous visitor's address may have stored in an hour (each is kept, ~19 KB); 0: none. */
  anonymousAnswersPerHour: number;
  /**
   * What the server's request gate holds to (lib/common/request-gate.mjs): the proxies whose X-Forwarded-For names
   * the client (none by default: the socket's peer is the client), and the largest JSON body a route reads.
   */
  requests: GateSettings;
  /** The key that signs session cookies; null: one is generated into the data folder on first start. */
  authSecret: string | null;
  /**
   * A Neo4j server for the knowledge graph; null selects the embedded graph store. `cacheMb`: what each process may
   * keep of Neo4j's answers to graph questions (lib/retrieval/graph-sources/cached.ts; 0: nothing).
   */
  neo4j: { uri: string; user: string; password: string; database: string | null; cacheMb: number } | null;
  /**
   * The server's line for questions (lib/common/admission.ts): how many are retrieved at once, and how many may wait
   * before the next is refused with 503 and Retry-After; and how many worker threads retrieve the admitted ones
   * (lib/serving/retrieval-pool.ts; 0: the server's own thread).
   */
  admission: { concurrency: number; maxWaiting: number; workers: number };
  /**
   * How long a question (retrieval, answer) or a library or graph search may take once admitted, in milliseconds
   * (lib/common/deadline.ts): past it, it ends with a message asking for shorter input. A model's own time (writing
   * an answer) has its own timeout.
   */
  budgetMs: number;
  /**
   * The shared job queue (lib/jobs/queue.ts): a running job whose heartbeat is older than `staleSeconds` belongs to
   * a dead process and is taken over; an idle server looks for queued jobs every `pollSeconds`.
   */
  jobs: { staleSeconds: number; pollSeconds: number };
};

export class ConfigError extends Error {}

/**
 * Questions retrieved at once when ASSAY_RETRIEVAL_CONCURRENCY is not set. On the server's own thread, 2: more
 * would hold its HTTP work behind a run of retrievals. In worker threads, 4 per worker: a worker then has a
 * question to work on while others wait for their vectors or rows from the server's thread (bench load, 50
 * clients, shared corpus, 2 cores, three alternating pairs: 47.0–47.5 requests/s with 2, 52.3–56.4 with 4; 6
 * and 8 gave no more).
 */
/** Whether retrieval workers can serve under this configuration: they hold no database to search in. */
export const workersServe = (cfg: Pick<AssayConfig, 'search' | 'vectors'>): boolean => cfg.search !== 'database' && cfg.vectors !== 'database';

export const defaultRetrievalConcurrency = (workers: number): number => (workers > 0 ? 4 * workers : 2);

/** Every variable the configuration reads (the README's configuration table names each: lib/config.test.ts checks). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(envSchema.shape);

export function readConfig(env: Record<string, string | undefined> = process.env): AssayConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid Assay configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.ASSAY_EXTRACTOR === 'llm' && !(e.ASSAY_LLM_BASE_URL && e.ASSAY_CHAT_MODEL)) {
    throw new ConfigError('Invalid Assay configuration:\n  ASSAY_EXTRACTOR=llm needs ASSAY_LLM_BASE_URL and ASSAY_CHAT_MODEL (an OpenAI-compatible server)');
  }
  if (e.ASSAY_REFORMULATION === 'llm' && !(e.ASSAY_LLM_BASE_URL && e.ASSAY_CHAT_MODEL)) {
    throw new ConfigError(
      'Invalid Assay configuration:\n  ASSAY_REFORMULATION=llm needs ASSAY_LLM_BASE_URL and ASSAY_CHAT_MODEL (an OpenAI-compatible server)',
    );
  }
  if (e.ASSAY_GRAPH_EXTRACTOR === 'llm' && !(e.ASSAY_LLM_BASE_URL && e.ASSAY_CHAT_MODEL)) {
    throw new ConfigError(
      'Invalid Assay configuration:\n  ASSAY_GRAPH_EXTRACTOR=llm needs ASSAY_LLM_BASE_URL and ASSAY_CHAT_MODEL (an OpenAI-compatible server)',
    );
  }
  if (e.ASSAY_EMBEDDING_MODEL && !e.ASSAY_LLM_BASE_URL) {
    throw new ConfigError(
      'Invalid Assay configuration:\n  ASSAY_EMBEDDING_MODEL needs ASSAY_LLM_BASE_URL (an OpenAI-compatible server with an embeddings endpoint)',
    );
  }
  if (e.ASSAY_RERANK_MODEL && !(e.ASSAY_RERANK_BASE_URL ?? e.ASSAY_LLM_BASE_URL)) {
    throw new ConfigError(
      'Invalid Assay configuration:\n  ASSAY_RERANK_MODEL needs ASSAY_RERANK_BASE_URL or ASSAY_LLM_BASE_URL (a server with a /rerank endpoint)',
    );
  }
  let requests: GateSettings;
  try {
    requests = gateSettings(env);
  } catch (error) {
    throw new ConfigError(`Invalid Assay configuration:\n  ${(error as Error).message}`);
  }
  const splitPaths = (v: string | undefined) =>
    (v ?? '')
      .split(path.delimiter)
      .map((p) => p.trim())
      .filter(Boolean)
      .map((p) => path.resolve(p));
  return {
    dataDir: path.resolve(e.ASSAY_DATA_DIR),
    databaseUrl: e.DATABASE_URL ? e.DATABASE_URL : null,
    databasePool: e.ASSAY_DATABASE_POOL,
    corpusPaths: splitPaths(e.ASSAY_CORPUS),
    port: e.PORT,
    publicUrl: (e.ASSAY_PUBLIC_URL ?? `http://127.0.0.1:${e.PORT}`).replace(/\/+$/, ''),
    maxUploadBytes: Math.round(e.ASSAY_MAX_UPLOAD_MB * 1024 * 1024),
    maxLineBytes: e.ASSAY_MAX_LINE_BYTES,
    importBatchPapers: e.ASSAY_IMPORT_BATCH_PAPERS,
    documentLimits: {
      paragraphChars: e.ASSAY_MAX_PARAGRAPH_CHARS,
      paperChars: e.ASSAY_MAX_PAPER_CHARS,
      paragraphsPerPaper: e.ASSAY_MAX_PARAGRAPHS,
      xmlElements: e.ASSAY_MAX_XML_ELEMENTS,
    },
    europePmcUrl: e.ASSAY_EUROPEPMC_URL.replace(/\/+$/, ''),
    pdfTables: e.ASSAY_PDF_TABLES,
    scholarly: {
      crossrefUrl: e.ASSAY_CROSSREF_URL.replace(/\/+$/, ''),
      openAlexUrl: e.ASSAY_OPENALEX_URL.replace(/\/+$/, ''),
      wikidataUrl: e.ASSAY_WIKIDATA_URL.replace(/\/+$/, ''),
      mailto: e.ASSAY_CONTACT_EMAIL ?? null,
      enrichment: e.ASSAY_ENRICHMENT,
      timeoutMs: e.ASSAY_SCHOLARLY_TIMEOUT_SECONDS * 1000,
      importLicences: e.ASSAY_IMPORT_LICENCES.split(',')
        .map((l) => l.trim().toLowerCase())
        .filter(Boolean),
    },
    starterQuery: e.ASSAY_STARTER_QUERY,
    starterSize: e.ASSAY_STARTER_SIZE,
    extractor: e.ASSAY_EXTRACTOR,
    llm:
      e.ASSAY_LLM_BASE_URL && e.ASSAY_CHAT_MODEL
        ? {
            baseUrl: e.ASSAY_LLM_BASE_URL.replace(/\/+$/, ''),
            apiKey: e.ASSAY_LLM_API_KEY ?? '',
            chatModel: e.ASSAY_CHAT_MODEL,
            concurrency: e.ASSAY_LLM_CONCURRENCY,
          }
        : null,
    answerModel: e.ASSAY_LLM_BASE_URL && e.ASSAY_CHAT_MODEL ? (e.ASSAY_ANSWER_MODEL ?? e.ASSAY_CHAT_MODEL) : null,
    judgeModel: e.ASSAY_LLM_BASE_URL && e.ASSAY_JUDGE_MODEL ? e.ASSAY_JUDGE_MODEL : null,
    answerPrice:
      e.ASSAY_PRICE_INPUT_PER_MTOK !== undefined || e.ASSAY_PRICE_OUTPUT_PER_MTOK !== undefined
        ? { inputPerMTok: e.ASSAY_PRICE_INPUT_PER_MTOK ?? 0, outputPerMTok: e.ASSAY_PRICE_OUTPUT_PER_MTOK ?? 0 }
        : null,
    embedding:
      e.ASSAY_EMBEDDING_MODEL && e.ASSAY_LLM_BASE_URL
        ? { baseUrl: e.ASSAY_LLM_BASE_URL.replace(/\/+$/, ''), apiKey: e.ASSAY_LLM_API_KEY ?? '', model: e.ASSAY_EMBEDDING_MODEL }
        : null,
    localEmbedder: e.ASSAY_LOCAL_EMBEDDER,
    structuringHeads: e.ASSAY_STRUCTURING_HEADS,
    materialTagger: e.ASSAY_MATERIAL_TAGGER,
    trainingData: path.resolve(e.ASSAY_TRAINING_DATA ?? e.ASSAY_SHARED_DATA ?? path.join('..', 'shared', 'data')),
    modelRepository: e.ASSAY_MODEL_REPOSITORY.replace(/\/+$/, ''),
    rerank: e.ASSAY_RERANK_MODEL
      ? { baseUrl: (e.ASSAY_RERANK_BASE_URL ?? e.ASSAY_LLM_BASE_URL)!.replace(/\/+$/, ''), apiKey: e.ASSAY_LLM_API_KEY ?? '', model: e.ASSAY_RERANK_MODEL }
      : null,
    search: e.ASSAY_SEARCH,
    vectors: e.ASSAY_VECTORS,
    reformulation:
      e.ASSAY_REFORMULATION === 'rules' ? 'rules' : e.ASSAY_REFORMULATION === 'llm' || (e.ASSAY_LLM_BASE_URL && e.ASSAY_CHAT_MODEL) ? 'llm' : 'rules',
    questionPaths: splitPaths(e.ASSAY_QUESTIONS),
    graphExtractor: e.ASSAY_GRAPH_EXTRACTOR,
    anonymous: e.ASSAY_ANONYMOUS,
    evaluationsVisible: e.ASSAY_EVALUATIONS_VISIBLE,
    anonymousAnswersPerHour: e.ASSAY_ANONYMOUS_ANSWERS_PER_HOUR,
    requests,
    authSecret: e.ASSAY_AUTH_SECRET ?? null,
    admission: {
      concurrency:
        e.ASSAY_RETRIEVAL_CONCURRENCY ??
        defaultRetrievalConcurrency(workersServe({ search: e.ASSAY_SEARCH, vectors: e.ASSAY_VECTORS }) ? e.ASSAY_RETRIEVAL_WORKERS : 0),
      maxWaiting: e.ASSAY_RETRIEVAL_QUEUE,
      workers: e.ASSAY_RETRIEVAL_WORKERS,
    },
    budgetMs: Math.round(e.ASSAY_QUESTION_BUDGET_SECONDS * 1000),
    jobs: { staleSeconds: e.ASSAY_JOB_STALE_SECONDS, pollSeconds: e.ASSAY_JOB_POLL_SECONDS },
    neo4j: e.NEO4J_URI
      ? { uri: e.NEO4J_URI, user: e.NEO4J_USER, password: e.NEO4J_PASSWORD ?? '', database: e.NEO4J_DATABASE ?? null, cacheMb: e.ASSAY_NEO4J_CACHE_MB }
      : null,
  };
}

let cached: AssayConfig | undefined;

/** The process-wide configuration (read on first use). */
export function config(): AssayConfig {
  cached ??= readConfig();
  return cached;
}
