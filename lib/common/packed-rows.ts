/**
 * Rows of one shape (every row has the same keys) packed column by column for V8's serializer: strings become
 * indexes into one table of distinct strings, numbers and booleans typed arrays, sets and lists of strings packed
 * lists of indexes. Reading packed rows back is a few typed arrays and one array of distinct strings instead of an
 * object, a Set and a copy of every string per row: the graph index of the shared corpus (37,000 tuples) was 0.5 s
 * to deserialize plus 0.7 s to share its repeated strings again (internStrings), and 128 MB before sharing.
 *
 * `unpackRows` gives back rows equal to the packed ones, keys in the same order, each distinct string one shared copy.
 * Values of any other kind (objects, mixed columns) are kept as they are, in a plain column.
 */
export interface PackedRows {
  count: number;
  keys: string[];
  strings: string[];
  columns: PackedColumn[];
  /** Rows not all of one shape, kept as they are. */
  rows?: unknown[];
}

type PackedColumn =
  /** Index into `strings`; -1 null. */
  | { kind: 'string'; ids: Int32Array }
  /** `missing` 1 where the value is null. */
  | { kind: 'number'; values: Float64Array; missing: Uint8Array | null }
  | { kind: 'boolean'; values: Uint8Array }
  /** Row i's items are ids[offsets[i] .. offsets[i + 1]) (indexes into `strings`). */
  | { kind: 'stringSet' | 'stringArray'; offsets: Uint32Array; ids: Uint32Array }
  | { kind: 'plain'; values: unknown[] };

type Kind = PackedColumn['kind'];

const isStrings = (items: Iterable<unknown>) => {
  for (const x of items) if (typeof x !== 'string') return false;
  return true;
};

/** The column kind every value of `key` fits (a column of nulls is a string column). */
function kindOf(rows: Record<string, unknown>[], key: string): Kind {
  const fits = { string: true, number: true, boolean: true, stringSet: true, stringArray: true };
  for (const row of rows) {
    const v = row[key];
    if (v !== null && typeof v !== 'string') fits.string = false;
    if (v !== null && typeof v !== 'number') fits.number = false;
    if (typeof v !== 'boolean') fits.boolean = false;
    if (!(v instanceof Set && isStrings(v))) fits.stringSet = false;
    if (!(Array.isArray(v) && isStrings(v))) fits.stringArray = false;
  }
  return (Object.keys(fits) as (keyof typeof fits)[]).find((k) => fits[k]) ?? 'plain';
}

/** Distinct strings numbered in the order they are first seen (the `strings` of packed rows and facets). */
export class StringTable {
  private readonly ids = new Map<string, number>();
  readonly idOf = (s: string): number => {
    let id = this.ids.get(s);
    if (id === undefined) this.ids.set(s, (id = this.ids.size));
    return id;
  };
  strings = (): string[] => [...this.ids.keys()];
}

/** `rows` packed column by column; rows that do not all have the same keys in the same order are kept as they are. */
export function packRows<T extends object>(rows: readonly T[]): PackedRows {
  const objects = rows as unknown as Record<string, unknown>[];
  const keys = objects.length ? Object.keys(objects[0]) : [];
  const sameKeys = (o: Record<string, unknown>) => {
    const own = Object.keys(o);
    return own.length === keys.length && own.every((k, i) => k === keys[i]);
  };
  if (!objects.every(sameKeys)) return { count: objects.length, keys: [], strings: [], columns: [], rows: [...objects] };
  const table = new StringTable();
  const { idOf } = table;
  const n = objects.length;
  const columns = keys.map((key): PackedColumn => {
    const kind = kindOf(objects, key);
    if (kind === 'string') return { kind, ids: Int32Array.from(objects, (o) => (o[key] === null ? -1 : idOf(o[key] as string))) };
    if (kind === 'number') {
      const missing = objects.some((o) => o[key] === null) ? Uint8Array.from(objects, (o) => (o[key] === null ? 1 : 0)) : null;
      return { kind, values: Float64Array.from(objects, (o) => (o[key] as number | null) ?? 0), missing };
    }
    if (kind === 'boolean') return { kind, values: Uint8Array.from(objects, (o) => (o[key] ? 1 : 0)) };
    if (kind === 'stringSet' || kind === 'stringArray') {
      const offsets = new Uint32Array(n + 1);
      const ids: number[] = [];
      objects.forEach((o, i) => {
        for (const s of o[key] as Iterable<string>) ids.push(idOf(s));
        offsets[i + 1] = ids.length;
      });
      return { kind, offsets, ids: Uint32Array.from(ids) };
    }
    return { kind, values: objects.map((o) => o[key]) };
  });
  return { count: n, keys, strings: table.strings(), columns };
}

/** The rows `packRows` packed. */
export function unpackRows<T>(packed: PackedRows): T[] {
  const { count, keys, strings, columns } = packed;
  if (packed.rows) return packed.rows as T[];
  // Every row is a copy of one template that has all the keys, its properties made fast by JSON.parse, and values
  // are then set on keys it already has. Rows built by adding a few dozen keys one by one to {} become hash-table
  // objects (V8 stops adding fast properties that way after a dozen): 1.6 KB a row of 23 keys instead of 0.2 KB,
  // 0.5 GB for the graph index at ten times the shared corpus.
  const template = JSON.parse(JSON.stringify(Object.fromEntries(keys.map((k) => [k, null])))) as Record<string, unknown>;
  const rows: Record<string, unknown>[] = new Array(count);
  for (let i = 0; i < count; i++) rows[i] = { ...template };
  keys.forEach((key, k) => {
    const c = columns[k];
    for (let i = 0; i < count; i++) rows[i][key] = cell(c, strings, i);
  });
  return rows as T[];
}

function cell(c: PackedColumn, strings: string[], i: number): unknown {
  switch (c.kind) {
    case 'string':
      return c.ids[i] < 0 ? null : strings[c.ids[i]];
    case 'number':
      return c.missing?.[i] ? null : c.values[i];
    case 'boolean':
      return c.values[i] === 1;
    case 'stringSet':
    case 'stringArray': {
      const items: string[] = [];
      for (let j = c.offsets[i]; j < c.offsets[i + 1]; j++) items.push(strings[c.ids[j]]);
      return c.kind === 'stringSet' ? new Set(items) : items;
    }
    default:
      return c.values[i];
  }
}
