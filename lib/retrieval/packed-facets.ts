import type { QuantityFacet } from './facets.ts';

/**
 * The pieces that facets (materials, properties, quantities) are packed from, for the index's parts that keep many of
 * them (paragraphs: packed-paragraphs.ts), beside their strings numbered once (StringTable,
 * lib/common/packed-rows.ts): lists of string ids and quantities in typed arrays, which V8's serializer stores as
 * they are and which hold no object per item.
 */

/** Lists of string ids: item i's are ids[at[i] .. at[i + 1]). */
export interface IdLists {
  at: Uint32Array;
  ids: Uint32Array;
}

export class IdListsBuilder {
  private readonly at: number[] = [0];
  private readonly ids: number[] = [];
  constructor(private readonly idOf: (s: string) => number) {}
  add(items: Iterable<string>) {
    for (const s of items) this.ids.push(this.idOf(s));
    this.at.push(this.ids.length);
  }
  done = (): IdLists => ({ at: Uint32Array.from(this.at), ids: Uint32Array.from(this.ids) });
}

/** Item i's strings, as a Set (the facets' own form). */
export function stringsOf(lists: IdLists, strings: string[], i: number): Set<string> {
  const out = new Set<string>();
  for (let j = lists.at[i]; j < lists.at[i + 1]; j++) out.add(strings[lists.ids[j]]);
  return out;
}

/** Quantities column by column. */
export interface PackedQuantities {
  dimension: Uint32Array;
  text: Uint32Array;
  range: Uint8Array;
  /** NaN where the quantity has no offset. */
  start: Float64Array;
  /** Quantity q's values are values[valueAt[q] .. valueAt[q + 1]). */
  valueAt: Uint32Array;
  values: Float64Array;
}

export class QuantitiesBuilder {
  private readonly q = { dimension: [] as number[], text: [] as number[], range: [] as number[], start: [] as number[], valueAt: [0], values: [] as number[] };
  constructor(private readonly idOf: (s: string) => number) {}
  /** Quantities added so far. */
  get count(): number {
    return this.q.dimension.length;
  }
  add(x: QuantityFacet) {
    const { q, idOf } = this;
    q.dimension.push(idOf(x.dimension));
    q.text.push(idOf(x.text));
    q.range.push(x.range ? 1 : 0);
    q.start.push(x.start ?? Number.NaN);
    for (const v of x.values) q.values.push(v);
    q.valueAt.push(q.values.length);
  }
  done(): PackedQuantities {
    const { q } = this;
    return {
      dimension: Uint32Array.from(q.dimension),
      text: Uint32Array.from(q.text),
      range: Uint8Array.from(q.range),
      start: Float64Array.from(q.start),
      valueAt: Uint32Array.from(q.valueAt),
      values: Float64Array.from(q.values),
    };
  }
}

/** Quantity k, as it was added. */
export function readQuantity(q: PackedQuantities, strings: string[], k: number): QuantityFacet {
  const start = q.start[k];
  return {
    dimension: strings[q.dimension[k]],
    values: Array.from(q.values.subarray(q.valueAt[k], q.valueAt[k + 1])),
    range: q.range[k] === 1,
    text: strings[q.text[k]],
    start: Number.isNaN(start) ? undefined : start,
  };
}
