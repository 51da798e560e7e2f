import { type PackedRows, packRows, unpackRows } from '../common/packed-rows.ts';
import type { Facets, QuantityFacet } from './facets.ts';
import type { IndexedParagraph } from './index.ts';
import type { TableRowCells } from './table-rows.ts';

/**
 * The paragraphs of a stored index, with their facets, sentence facets and sentence spans packed into typed arrays.
 * Kept as objects, the shared corpus's 8,900 paragraphs are some half a million small objects (a Facets, two Sets and
 * a list of quantities per sentence, a span per sentence): about 0.4 s of V8's deserializer, and most of the
 * ~0.9 s of garbage collection that moved what a restarting retrieval worker had read into its old heap, all before
 * its first question. Read back, each paragraph is one object whose facets, sentences and spans are unpacked the
 * first time a question scores it (a question scores a few hundred), so a restart pays for none of them.
 */
export interface PackedParagraphs {
  /** id, paperId, ordinal, externalId, section, text, role, method: one row per paragraph. */
  rows: PackedRows;
  /** Table rows' cells, by the paragraph's position. */
  tables: [number, TableRowCells][];
  /** Materials, properties, dimensions and quantity texts. */
  strings: string[];
  /** Paragraph i's sentences are sentences[sentenceAt[i] .. sentenceAt[i + 1]). */
  sentenceAt: Uint32Array;
  /** The paragraph's own materials and properties (its sentences' and its entities'), in their order. */
  materials: IdLists;
  properties: IdLists;
  /** Per sentence: start and end in the paragraph's text, two numbers each. */
  spans: Uint32Array;
  sentenceMaterials: IdLists;
  sentenceProperties: IdLists;
  /** Sentence s's quantities are quantities[quantityAt[s] .. quantityAt[s + 1]); a paragraph's are its sentences'. */
  quantityAt: Uint32Array;
  quantities: {
    dimension: Uint32Array;
    text: Uint32Array;
    range: Uint8Array;
    /** NaN where the quantity has no offset. */
    start: Float64Array;
    /** Quantity q's values are values[valueAt[q] .. valueAt[q + 1]). */
    valueAt: Uint32Array;
    values: Float64Array;
  };
}

/** Lists of string ids: item i's are ids[at[i] .. at[i + 1]). */
interface IdLists {
  at: Uint32Array;
  ids: Uint32Array;
}

type Scalars = Omit<IndexedParagraph, 'facets' | 'sentences' | 'sentenceSpans' | 'table'>;

class IdListsBuilder {
  readonly at: number[] = [0];
  readonly ids: number[] = [];
  constructor(private readonly idOf: (s: string) => number) {}
  add(items: Iterable<string>) {
    for (const s of items) this.ids.push(this.idOf(s));
    this.at.push(this.ids.length);
  }
  done = (): IdLists => ({ at: Uint32Array.from(this.at), ids: Uint32Array.from(this.ids) });
}

/**
 * `paragraphs` packed. A paragraph's quantities must be its sentences' in order (as `paragraphFacets` makes them):
 * they are stored once, as the sentences'.
 */
export function packParagraphs(paragraphs: Iterable<IndexedParagraph>): PackedParagraphs {
  const table = new Map<string, number>();
  const idOf = (s: string) => {
    let id = table.get(s);
    if (id === undefined) table.set(s, (id = table.size));
    return id;
  };
  const lists = () => new IdListsBuilder(idOf);
  const [materials, properties, sentenceMaterials, sentenceProperties] = [lists(), lists(), lists(), lists()];
  const scalars: Scalars[] = [];
  const tables: [number, TableRowCells][] = [];
  const sentenceAt = [0];
  const spans: number[] = [];
  const quantityAt = [0];
  const q = { dimension: [] as number[], text: [] as number[], range: [] as number[], start: [] as number[], valueAt: [0], values: [] as number[] };
  for (const p of paragraphs) {
    const { facets, sentences, sentenceSpans, table: cells, ...rest } = p;
    const own = sentences.flatMap((s) => s.quantities);
    if (own.length !== facets.quantities.length || own.some((x, i) => x !== facets.quantities[i]))
      throw new Error(`paragraph ${p.id}: its quantities are not its sentences' (packParagraphs stores them once)`);
    if (cells) tables.push([scalars.length, cells]);
    scalars.push(rest);
    materials.add(facets.materials);
    properties.add(facets.properties);
    sentences.forEach((s, i) => {
      spans.push(sentenceSpans[i].start, sentenceSpans[i].end);
      sentenceMaterials.add(s.materials);
      sentenceProperties.add(s.properties);
      for (const x of s.quantities) {
        q.dimension.push(idOf(x.dimension));
        q.text.push(idOf(x.text));
        q.range.push(x.range ? 1 : 0);
        q.start.push(x.start ?? Number.NaN);
        q.values.push(...x.values);
        q.valueAt.push(q.values.length);
      }
      quantityAt.push(q.dimension.length);
    });
    sentenceAt.push(sentenceAt[sentenceAt.length - 1] + sentences.length);
  }
  return {
    rows: packRows(scalars),
    tables,
    strings: [...table.keys()],
    sentenceAt: Uint32Array.from(sentenceAt),
    materials: materials.done(),
    properties: properties.done(),
    spans: Uint32Array.from(spans),
    sentenceMaterials: sentenceMaterials.done(),
    sentenceProperties: sentenceProperties.done(),
    quantityAt: Uint32Array.from(quantityAt),
    quantities: {
      dimension: Uint32Array.from(q.dimension),
      text: Uint32Array.from(q.text),
      range: Uint8Array.from(q.range),
      start: Float64Array.from(q.start),
      valueAt: Uint32Array.from(q.valueAt),
      values: Float64Array.from(q.values),
    },
  };
}

const stringsOf = (lists: IdLists, strings: string[], i: number): Set<string> => {
  const out = new Set<string>();
  for (let j = lists.at[i]; j < lists.at[i + 1]; j++) out.add(strings[lists.ids[j]]);
  return out;
};

/**
 * A paragraph read back from `PackedParagraphs`: its facets, sentences and spans are unpacked when first read and
 * then kept. Its fields are plain own properties, the unpacked ones are getters: code that copies a paragraph
 * (`{ ...p }`) must not, as the index's code does not; `packParagraphs` reads it through the getters.
 */
class StoredParagraph {
  #facets: Facets | undefined;
  #sentences: Facets[] | undefined;
  #spans: { start: number; end: number }[] | undefined;
  // Private, so that neither a structured clone nor JSON of a paragraph carries the whole store.
  readonly #store: PackedParagraphs;
  readonly #at: number;
  declare table?: TableRowCells;

  constructor(store: PackedParagraphs, at: number) {
    this.#store = store;
    this.#at = at;
  }

  /** Its facets: those of the papers the paper caches hold are read when they warm up (see warmPaperCaches). */
  get facets(): Facets {
    if (this.#facets) return this.#facets;
    const { quantities: q, strings, quantityAt, sentenceAt } = this.#store;
    const quantities: QuantityFacet[] = [];
    for (let k = quantityAt[sentenceAt[this.#at]]; k < quantityAt[sentenceAt[this.#at + 1]]; k++) {
      const start = q.start[k];
      quantities.push({
        dimension: strings[q.dimension[k]],
        values: Array.from(q.values.subarray(q.valueAt[k], q.valueAt[k + 1])),
        range: q.range[k] === 1,
        text: strings[q.text[k]],
        start: Number.isNaN(start) ? undefined : start,
      });
    }
    this.#facets = {
      materials: stringsOf(this.#store.materials, strings, this.#at),
      properties: stringsOf(this.#store.properties, strings, this.#at),
      quantities,
    };
    return this.#facets;
  }

  /** Its sentences' facets (only those of paragraphs a question has scored are read): their quantities are the paragraph's. */
  get sentences(): Facets[] {
    if (this.#sentences) return this.#sentences;
    const { strings, sentenceAt, quantityAt, sentenceMaterials, sentenceProperties } = this.#store;
    const { quantities } = this.facets;
    const first = sentenceAt[this.#at];
    const base = quantityAt[first];
    this.#sentences = [];
    for (let s = first; s < sentenceAt[this.#at + 1]; s++)
      this.#sentences.push({
        materials: stringsOf(sentenceMaterials, strings, s),
        properties: stringsOf(sentenceProperties, strings, s),
        quantities: quantities.slice(quantityAt[s] - base, quantityAt[s + 1] - base),
      });
    return this.#sentences;
  }

  get sentenceSpans(): { start: number; end: number }[] {
    if (!this.#spans) {
      const { spans, sentenceAt } = this.#store;
      this.#spans = [];
      for (let s = sentenceAt[this.#at]; s < sentenceAt[this.#at + 1]; s++) this.#spans.push({ start: spans[2 * s], end: spans[2 * s + 1] });
    }
    return this.#spans;
  }
}

/** The paragraphs `packParagraphs` packed, by id, in the same order. */
export function unpackParagraphs(packed: PackedParagraphs): Map<string, IndexedParagraph> {
  const cells = new Map(packed.tables);
  const out = new Map<string, IndexedParagraph>();
  unpackRows<Scalars>(packed.rows).forEach((row, i) => {
    const p = Object.assign(new StoredParagraph(packed, i), row) as StoredParagraph & Scalars;
    const table = cells.get(i);
    if (table) p.table = table;
    out.set(row.id, p as unknown as IndexedParagraph);
  });
  return out;
}
