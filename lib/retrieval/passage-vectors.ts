import { normalise, type TextEmbedder } from '../embedding/embedder.ts';
import { DenseIndex, type DensePrecision } from './dense-index.ts';

/**
 * The dense vectors of an index's passages. The embedder reads each paragraph once, and the other spaces are made of
 * those vectors rather than embedded again:
 * - raw: the paragraph as it is;
 * - json (the structured space): the same vectors — what the structure adds (role, method, canonical materials,
 *   values) is searched by BM25's structure field;
 * - section chunks (method B's VectorRAG) are scored by their closest paragraph (lib/retrieval/search.ts,
 *   `denseChunks`). Measured on every dev form against a chunk vector made of the mean of its paragraphs' it ranks
 *   papers as well or better on each (plain DOI@5 0.845 → 0.854, student 0.706 → 0.882), and one embedding of the
 *   merged text would be cut at the model's length limit.
 * Embedding the three texts separately (the structure rendered under the title, the chunks under title and section
 * heading) read the corpus three times: about 6 M tokens, 49 min with the local model on two cores. A paper's title
 * vector can be added to its paragraphs' structured vectors (`titleWeight`), which the chunks are scored by too; swept
 * on the dev forms (`npm run bench -- fusion --title-weights 0,0.25,0.5`) it finds the value a question asks for far
 * more often (vector value@3 on the plain form 0.693 → 0.874 → 0.922) but ranks the right paper lower on the plain,
 * paraphrased and student forms (vector DOI@5 0.854 → 0.825 → 0.819; student 0.882 → 0.765), so it is off.
 */
export const TITLE_WEIGHT = 0;

/** How the passages' vectors are held (see DenseIndex). */
export const PASSAGE_PRECISION: DensePrecision = 'int8';

export interface PassageParts {
  papers: Map<string, { id: string; title: string | null }>;
  paragraphs: Map<string, { id: string; paperId: string; text: string }>;
}

export interface DenseParts {
  raw: DenseIndex;
  json: DenseIndex;
}

/** The texts the embedder reads for these passages: paragraphs, and the titles of their papers when weighted. */
export function passageTexts({ papers, paragraphs }: PassageParts) {
  const list = [...paragraphs.values()];
  const titled = [...papers.values()].filter((p) => p.title?.trim());
  return {
    paragraphIds: list.map((p) => p.id),
    paragraphs: list.map((p) => p.text),
    paperIds: titled.map((p) => p.id),
    titles: titled.map((p) => p.title!.trim()),
    all(titleWeight = TITLE_WEIGHT) {
      return titleWeight ? [...this.paragraphs, ...this.titles] : this.paragraphs;
    },
  };
}

/** `base` plus `weight` × `extra` (when there is one), normalised: a new vector, the inputs are left alone. */
function compose(base: Float32Array, extra: Float32Array | undefined, weight: number): Float32Array {
  const v = Float32Array.from(base);
  if (extra && weight) for (let i = 0; i < v.length; i++) v[i] += weight * extra[i];
  return normalise(v);
}

/** The dense indexes of an index's passages under an embedder (titles embedded only when weighted). */
export async function embedPassages(parts: PassageParts, embedder: TextEmbedder, titleWeight: number = TITLE_WEIGHT): Promise<DenseParts> {
  const t = passageTexts(parts);
  const paragraphVectors = await embedder.embed(t.paragraphs);
  const raw = new DenseIndex(t.paragraphIds, paragraphVectors, embedder.dimensions, { precision: PASSAGE_PRECISION });
  if (!titleWeight) return { raw, json: raw };
  const titleVectors = await embedder.embed(t.titles);
  const byPaper = new Map(t.paperIds.map((id, i) => [id, titleVectors[i]]));
  const titled = t.paragraphIds.map((id, i) => compose(paragraphVectors[i], byPaper.get(parts.paragraphs.get(id)!.paperId), titleWeight));
  return { raw, json: new DenseIndex(t.paragraphIds, titled, embedder.dimensions, { precision: PASSAGE_PRECISION }) };
}
