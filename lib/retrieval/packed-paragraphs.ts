import { type PackedRows, packRows, StringTable, unpackRows } from '../common/packed-rows.ts';
import type { Facets, QuantityFacet } from './facets.ts';
import type { IndexedParagraph } from './indexed.ts';
import type { TableRowCells } from './table-rows.ts';
import { IdListsBuilder, type IdLists, type PackedQuantities, QuantitiesBuilder, readQuantity, stringsOf } from './packed-facets.ts';

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
  quantities: PackedQuantities;
}

type Scalars = Omit<IndexedParagraph, 'facets' | 'sentences' | 'sentenceSpans' | 'table'>;

/**
 * Packs paragraphs one at a time, so that an index build holds each paragraph's facets only while it indexes that
 * paragraph (at ten times the shared corpus, 89,000 paragraphs' facets and 600,000 sentences' as objects were most
 * of the build's 2.7 GB). A paragraph's quantities must be its sentences' in order (as `paragraphFacets` makes them):
 * they are stored once, as the sentences'.
 */
export class ParagraphPacker {
  private readonly table = new StringTable();
  private readonly idOf = this.table.idOf;
  private readonly materials = new IdListsBuilder(this.idOf);
  private readonly properties = new IdListsBuilder(this.idOf);
  private readonly sentenceMaterials = new IdListsBuilder(this.idOf);
  private readonly sentenceProperties = new IdListsBuilder(this.idOf);
  private readonly scalars: Scalars[] = [];
  private readonly tables: [number, TableRowCells][] = [];
  private readonly sentenceAt = [0];
  private readonly spans: number[] = [];
  private readonly quantityAt = [0];
  private readonly quantities = new QuantitiesBuilder(this.idOf);

  /** Adds a paragraph; its scalar fields are kept as they are (the row `unpackParagraphs` gives back). */
  add(p: IndexedParagraph): void {
    const { facets, sentences, sentenceSpans, table: cells, ...rest } = p;
    const own = sentences.flatMap((s) => s.quantities);
    if (own.length !== facets.quantities.length || own.some((x, i) => x !== facets.quantities[i]))
      throw new Error(`paragraph ${p.id}: its quantities are not its sentences' (they are packed once)`);
    if (cells) this.tables.push([this.scalars.length, cells]);
    this.scalars.push(rest);
    this.materials.add(facets.materials);
    this.properties.add(facets.properties);
    sentences.forEach((s, i) => {
      this.spans.push(sentenceSpans[i].start, sentenceSpans[i].end);
      this.sentenceMaterials.add(s.materials);
      this.sentenceProperties.add(s.properties);
      for (const x of s.quantities) this.quantities.add(x);
      this.quantityAt.push(this.quantities.count);
    });
    this.sentenceAt.push(this.sentenceAt[this.sentenceAt.length - 1] + sentences.length);
  }

  /** What was added, packed. */
  done(): PackedParagraphs {
    return {
      rows: packRows(this.scalars),
      tables: this.tables,
      strings: this.table.strings(),
      sentenceAt: Uint32Array.from(this.sentenceAt),
      materials: this.materials.done(),
      properties: this.properties.done(),
      spans: Uint32Array.from(this.spans),
      sentenceMaterials: this.sentenceMaterials.done(),
      sentenceProperties: this.sentenceProperties.done(),
      quantityAt: Uint32Array.from(this.quantityAt),
      quantities: this.quantities.done(),
    };
  }
}

/**
 * A paragraph read back from `PackedParagraphs`: its facets, sentences and spans are unpacked when first read and
 * then kept. Its fields are plain own properties, the unpacked ones are getters: code that copies a paragraph
 * (`{ ...p }`) must not, as the index's code does not; `ParagraphPacker` reads it through the getters.
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
    for (let k = quantityAt[sentenceAt[this.#at]]; k < quantityAt[sentenceAt[this.#at + 1]]; k++) quantities.push(readQuantity(q, strings, k));
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
