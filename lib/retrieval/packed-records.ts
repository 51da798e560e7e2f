import { StringTable } from '../common/packed-rows.ts';
import type { IndexedRecord } from './indexed.ts';
import { IdListsBuilder, type IdLists, type PackedQuantities, QuantitiesBuilder, readQuantity, stringsOf } from './packed-facets.ts';

/**
 * The records index's records packed column by column: at ten times the shared corpus there are 462,000, which as
 * objects (a text, two Sets and a list of quantities each) took 1.2 GB of heap once indexed and over 4 GB while the
 * index was built. A record is made an object again when a question reads it (a question reads a few hundred).
 */
export interface PackedRecords {
  ids: string[];
  texts: string[];
  /** paperId, doi, kind and title: indexes into `strings`, -1 for null. */
  paperId: Int32Array;
  doi: Int32Array;
  kind: Int32Array;
  title: Int32Array;
  /** Those four, materials, properties, dimensions and quantity texts. */
  strings: string[];
  materials: IdLists;
  properties: IdLists;
  /** Record i's quantities are quantities[quantityAt[i] .. quantityAt[i + 1]). */
  quantityAt: Uint32Array;
  quantities: PackedQuantities;
}

/** Packs records one at a time (the records index is built from pages of rows, see record-index.ts). */
export class RecordPacker {
  private readonly table = new StringTable();
  private readonly ids: string[] = [];
  private readonly texts: string[] = [];
  private readonly scalars = { paperId: [] as number[], doi: [] as number[], kind: [] as number[], title: [] as number[] };
  private readonly materials = new IdListsBuilder(this.table.idOf);
  private readonly properties = new IdListsBuilder(this.table.idOf);
  private readonly quantities = new QuantitiesBuilder(this.table.idOf);
  private readonly quantityAt = [0];

  add(r: IndexedRecord): void {
    const id = (s: string | null) => (s === null ? -1 : this.table.idOf(s));
    this.ids.push(r.id);
    this.texts.push(r.text);
    this.scalars.paperId.push(id(r.paperId));
    this.scalars.doi.push(id(r.doi));
    this.scalars.kind.push(id(r.kind));
    this.scalars.title.push(id(r.title));
    this.materials.add(r.facets.materials);
    this.properties.add(r.facets.properties);
    for (const q of r.facets.quantities) this.quantities.add(q);
    this.quantityAt.push(this.quantities.count);
  }

  done(): PackedRecords {
    const { paperId, doi, kind, title } = this.scalars;
    return {
      ids: this.ids,
      texts: this.texts,
      paperId: Int32Array.from(paperId),
      doi: Int32Array.from(doi),
      kind: Int32Array.from(kind),
      title: Int32Array.from(title),
      strings: this.table.strings(),
      materials: this.materials.done(),
      properties: this.properties.done(),
      quantityAt: Uint32Array.from(this.quantityAt),
      quantities: this.quantities.done(),
    };
  }
}

/** Packed records by id: each is made an object (a new one) when read. */
export class StoredRecords {
  private readonly position = new Map<string, number>();
  constructor(private readonly packed: PackedRecords) {
    for (let i = 0; i < packed.ids.length; i++) this.position.set(packed.ids[i], i);
  }

  get size(): number {
    return this.packed.ids.length;
  }

  get(id: string): IndexedRecord | undefined {
    const i = this.position.get(id);
    if (i === undefined) return undefined;
    const p = this.packed;
    const str = (k: number) => (k < 0 ? null : p.strings[k]);
    const quantities = [];
    for (let k = p.quantityAt[i]; k < p.quantityAt[i + 1]; k++) {
      const { start: _, ...q } = readQuantity(p.quantities, p.strings, k);
      quantities.push(q);
    }
    return {
      id,
      paperId: str(p.paperId[i]),
      doi: str(p.doi[i]),
      kind: str(p.kind[i]) ?? '',
      title: str(p.title[i]),
      text: p.texts[i],
      facets: { materials: stringsOf(p.materials, p.strings, i), properties: stringsOf(p.properties, p.strings, i), quantities },
    };
  }
}
