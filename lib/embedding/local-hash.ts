import type { EmbeddingModelV3 } from '@ai-sdk/provider';
import { createHash } from 'node:crypto';
import { plainTerms } from '../structure/terms.ts';
import { normalise, type TextEmbedder } from './embedder.ts';
import { timeSlicer } from '../common/yield.ts';

/**
 * The default embedder: needs no network and no downloaded weights. A text becomes a TF-IDF weighted bag of its
 * analyzed terms plus character 4-grams of its words (so "zirconia" and "zirconium", "stabilised" and
 * "stabilized" share features), signed-hashed into a fixed number of dimensions and L2-normalised. The IDF
 * table is fitted on the corpus at index time and its hash is part of the model id, so vectors from another fit
 * are never compared. It is a lexical-semantic sketch, not a neural model: it captures spelling and word-overlap
 * similarity but not synonyms, which is why the retrieval pipelines pair it with canonical terms.
 */
export interface LocalHashEmbedderOptions {
  dimensions?: number;
  /** Weights from `fitLocalHashEmbedder` (or a snapshot of its fit); without them every feature weighs the same. */
  idf?: Map<number, number> | IdfTable;
  fitId?: string;
}

/**
 * IDF weights as sorted feature hashes beside their weights: a snapshot of the index keeps the fit, and typed
 * arrays are stored and read back as they are, where a Map of some 150,000 numbers took 0.3 s to read back in each
 * thread that restores the index.
 */
export interface IdfTable {
  features: Float64Array;
  weights: Float64Array;
}

function idfTable(idf: Map<number, number> | IdfTable): IdfTable {
  if (!(idf instanceof Map)) return idf;
  const features = Float64Array.from(idf.keys()).sort();
  return { features, weights: features.map((f) => idf.get(f)!) };
}

/** The weight of feature `h`, or undefined when the fit never saw it. */
function weightOf(t: IdfTable, h: number): number | undefined {
  let lo = 0;
  let hi = t.features.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const f = t.features[mid];
    if (f === h) return t.weights[mid];
    if (f < h) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const fnvChars = (h: number, s: string, from: number, to: number): number => {
  for (let i = from; i < to; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h >>> 0;
};
// Word and n-gram features live in separate hash spaces (different seeds), keyed by their 32-bit hash.
const WORD_SEED = fnvChars(FNV_OFFSET, 'w:', 0, 2);
const GRAM_SEED = fnvChars(FNV_OFFSET, 'c:', 0, 2);

/**
 * Feature hash → term frequency (n-grams weigh ¼ of a word); terms never cross a line break. Features are not kept
 * between texts: an embedding call once kept each line's (for texts made of lines it had seen: section chunks of
 * joined paragraphs, which are no longer embedded, see passage-vectors.ts), and over a corpus of distinct paragraphs
 * that held every paragraph's features until the call returned (1.5 GB of heap at ten times the shared corpus).
 */
function features(text: string): Map<number, number> {
  const lines = text.split('\n');
  if (lines.length === 1) return computeFeatures(text);
  const tf = new Map<number, number>();
  for (const line of lines) for (const [h, n] of computeFeatures(line)) tf.set(h, (tf.get(h) ?? 0) + n);
  return tf;
}

function computeFeatures(text: string): Map<number, number> {
  const tf = new Map<number, number>();
  for (const term of plainTerms(text)) {
    const w = fnvChars(WORD_SEED, term, 0, term.length);
    tf.set(w, (tf.get(w) ?? 0) + 1);
    const padded = `<${term.toLowerCase()}>`;
    if (padded.length > 5) {
      for (let i = 0; i + 4 <= padded.length; i++) {
        const g = fnvChars(GRAM_SEED, padded, i, i + 4);
        tf.set(g, (tf.get(g) ?? 0) + 0.25);
      }
    }
  }
  return tf;
}

export class LocalHashEmbedder implements EmbeddingModelV3 {
  readonly specificationVersion = 'v3' as const;
  readonly provider = 'assay-local';
  readonly modelId: string;
  readonly maxEmbeddingsPerCall = 4096;
  readonly supportsParallelCalls = false;
  readonly dimensions: number;
  private readonly idf: IdfTable | undefined;
  private readonly defaultIdf: number;
  private readonly fitId: string | undefined;

  constructor(opts: LocalHashEmbedderOptions = {}) {
    this.dimensions = opts.dimensions ?? 512;
    this.idf = opts.idf && idfTable(opts.idf);
    let max = 1;
    for (const v of this.idf?.weights ?? []) if (v > max) max = v;
    this.defaultIdf = max;
    this.fitId = opts.fitId;
    this.modelId = `local-hash-${this.dimensions}${opts.fitId ? `@${opts.fitId}` : ''}`;
  }

  /** What it was fitted to, for a snapshot: `new LocalHashEmbedder(fit)` is the same embedder. */
  fit(): Required<Pick<LocalHashEmbedderOptions, 'dimensions'>> & Pick<LocalHashEmbedderOptions, 'idf' | 'fitId'> {
    return { dimensions: this.dimensions, idf: this.idf, fitId: this.fitId };
  }

  /** Embeds synchronously (the index build embeds thousands of paragraphs without awaiting each). */
  embedOne(text: string): Float32Array {
    const v = new Float32Array(this.dimensions);
    for (const [h, tf] of features(text)) {
      const w = (1 + Math.log(tf)) * ((this.idf && weightOf(this.idf, h)) ?? this.defaultIdf);
      v[h % this.dimensions] += h & 0x80000000 ? -w : w;
    }
    return normalise(v);
  }

  async doEmbed({ values }: { values: string[] }) {
    return { embeddings: values.map((t) => Array.from(this.embedOne(t))), warnings: [] };
  }
}

/** Fits IDF weights on a corpus sample and returns the embedder that uses them. */
export function fitLocalHashEmbedder(texts: Iterable<string>, dimensions = 256): LocalHashEmbedder {
  const df = new Map<number, number>();
  let n = 0;
  for (const t of texts) {
    n++;
    countFeatures(df, t);
  }
  return fitted(df, n, dimensions);
}

/** The same fit in short slices, for the server, which fits on the whole corpus (seconds) while answering pages. */
export async function fitLocalHashEmbedderSliced(texts: Iterable<string>, dimensions = 256): Promise<LocalHashEmbedder> {
  const df = new Map<number, number>();
  const slice = timeSlicer();
  let n = 0;
  for (const t of texts) {
    n++;
    countFeatures(df, t);
    await slice();
  }
  return fitted(df, n, dimensions);
}

function countFeatures(df: Map<number, number>, text: string) {
  for (const f of features(text).keys()) df.set(f, (df.get(f) ?? 0) + 1);
}

function fitted(df: Map<number, number>, n: number, dimensions: number): LocalHashEmbedder {
  const idf = new Map<number, number>();
  for (const [f, d] of df) idf.set(f, Math.log(1 + n / d));
  const fitId = createHash('sha256')
    .update(`${n}|${df.size}|${[...df.entries()].slice(0, 2000).join(',')}`)
    .digest('hex')
    .slice(0, 10);
  return new LocalHashEmbedder({ dimensions, idf, fitId });
}

/** The fit of an n-gram text embedder (`new LocalHashEmbedder(fit)` embeds as it does), or null for any other embedder. */
export function localFitOf(e: TextEmbedder): ReturnType<LocalHashEmbedder['fit']> | null {
  const model = (e as { model?: unknown }).model;
  return model instanceof LocalHashEmbedder ? model.fit() : null;
}

/** Questions whose vectors the n-gram embedder remembers (see `embedQuery`). */
const REMEMBERED_QUESTIONS = 64;

/** The n-gram embedder as a text embedder, with its model (whose fit a snapshot of the index keeps). */
export function localTextEmbedder(model: LocalHashEmbedder): TextEmbedder & { model: LocalHashEmbedder } {
  const questions = new Map<string, Float32Array>();
  return {
    model,
    id: model.modelId,
    dimensions: model.dimensions,
    embed: async (texts) => {
      // A corpus is thousands of texts: embedded in slices so the server answers requests meanwhile.
      const slice = timeSlicer();
      const out: Float32Array[] = [];
      for (const t of texts) {
        out.push(model.embedOne(t));
        await slice();
      }
      return out;
    },
    /**
     * A question's vector, the same array each time the same question is asked for: several steps of one retrieval
     * embed it (the graph's dense entry, the abstention's dense signals, the vector search), and the dense index
     * reuses a search by the identity of its vector (DenseIndex.query). Without it each of them scanned every
     * paragraph vector again: at ten times the shared corpus about 12 ms a scan, two or three a question.
     */
    embedQuery: async (texts) =>
      texts.map((t) => {
        let vector = questions.get(t);
        if (!vector) {
          vector = model.embedOne(t);
          if (questions.size >= REMEMBERED_QUESTIONS) questions.delete(questions.keys().next().value!);
          questions.set(t, vector);
        }
        return vector;
      }),
  };
}
