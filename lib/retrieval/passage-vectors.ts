import { normalise, type TextEmbedder } from '../embedding/embedder.ts';
import { DenseIndex } from './dense-index.ts';

/**
 * The dense vectors of an index's passages. The embedder reads each paragraph once; the other spaces are composed
 * from those vectors rather than embedded again:
 * - raw: the paragraph as it is;
 * - json (the structured space): the same vectors — what the structure adds (role, method, canonical materials,
 *   values) is searched by BM25's structure field;
 * - chunks (method B's VectorRAG, paragraphs merged by paper and section): the normalised mean of its paragraphs'
 *   vectors, which covers the whole section where one embedding of the merged text would be cut at the model's
 *   length limit.
 * Embedding the three texts separately (the structure rendered under the title, the chunks under title and section
 * heading) read the corpus three times: about 6 M tokens, 49 min with the local model on two cores. A paper's title
 * vector can be added to its paragraphs' and chunks' vectors (`weights`); swept on the dev forms (`npm run bench --
 * fusion --title-weights 0,0.1,0.25,0.5,1`) it helped the naturally worded form and cost the plain, paraphrased and
 * student forms, so it is off.
 */
export const TITLE_WEIGHT = { json: 0, chunk: 0 } as const;

export interface PassageParts {
  papers: Map<string, { id: string; title: string | null }>;
  paragraphs: Map<string, { id: string; paperId: string; text: string }>;
  chunks: Map<string, { id: string; paperId: string; paragraphIds: string[] }>;
}

export interface DenseParts {
  raw: DenseIndex;
  json: DenseIndex;
  chunks: DenseIndex;
}

/** The texts the embedder reads for these passages: paragraphs, and the titles of their papers when weighted. */
export function passageTexts({ papers, paragraphs }: Pick<PassageParts, 'papers' | 'paragraphs'>) {
  const list = [...paragraphs.values()];
  const titled = [...papers.values()].filter((p) => p.title?.trim());
  return {
    paragraphIds: list.map((p) => p.id),
    paragraphs: list.map((p) => p.text),
    paperIds: titled.map((p) => p.id),
    titles: titled.map((p) => p.title!.trim()),
    all(weights: { json: number; chunk: number } = TITLE_WEIGHT) {
      return weights.json || weights.chunk ? [...this.paragraphs, ...this.titles] : this.paragraphs;
    },
  };
}

/** `base` plus `weight` × `extra` (when there is one), normalised: a new vector, the inputs are left alone. */
function compose(base: Float32Array, extra: Float32Array | undefined, weight: number): Float32Array {
  const v = Float32Array.from(base);
  if (extra && weight) for (let i = 0; i < v.length; i++) v[i] += weight * extra[i];
  return normalise(v);
}

/** The dense indexes of an index's passages under an embedder (titles embedded only when a weight asks for them). */
export async function embedPassages(parts: PassageParts, embedder: TextEmbedder, weights: { json: number; chunk: number } = TITLE_WEIGHT): Promise<DenseParts> {
  const t = passageTexts(parts);
  const paragraphVectors = await embedder.embed(t.paragraphs);
  const titleVectors = weights.json || weights.chunk ? await embedder.embed(t.titles) : [];
  const byParagraph = new Map(t.paragraphIds.map((id, i) => [id, paragraphVectors[i]]));
  const byPaper = new Map(t.paperIds.map((id, i) => [id, titleVectors[i]]));
  const paperOf = (id: string) => parts.paragraphs.get(id)!.paperId;

  const raw = new DenseIndex(t.paragraphIds, paragraphVectors, embedder.dimensions);
  const json = weights.json
    ? new DenseIndex(
        t.paragraphIds,
        t.paragraphIds.map((id, i) => compose(paragraphVectors[i], byPaper.get(paperOf(id)), weights.json)),
        embedder.dimensions,
      )
    : raw;
  const chunkList = [...parts.chunks.values()];
  const chunks = chunkList.map((c) => {
    const mean = new Float32Array(embedder.dimensions);
    for (const pid of c.paragraphIds) {
      const v = byParagraph.get(pid);
      if (v) for (let i = 0; i < mean.length; i++) mean[i] += v[i];
    }
    return compose(normalise(mean), byPaper.get(c.paperId), weights.chunk);
  });
  return {
    raw,
    json,
    chunks: new DenseIndex(
      chunkList.map((c) => c.id),
      chunks,
      embedder.dimensions,
    ),
  };
}
