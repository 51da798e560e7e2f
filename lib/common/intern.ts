/**
 * Makes every short string inside `value` one shared copy per content, in place (Maps and Sets keep their
 * identity, so structures that share them still do), and returns `value`. V8's deserializer and structured
 * clone give each occurrence of a string its own copy: a retrieval worker that had read the shared corpus's index
 * held "has_property" 20,734 times and 103 MB of such repeats in 439 MB of live heap. Strings longer than
 * `maxLength` are left alone (paragraph texts rarely repeat, and keeping them out keeps the lookup table small).
 * Typed arrays and class instances other than Map/Set are not entered. `pool`: the copies kept so far, to share them
 * across calls (pages of rows read one after another).
 */
export function internStrings<T>(value: T, maxLength = 1024, pool = new Map<string, string>()): T {
  const seen = new WeakSet<object>();
  const one = (s: string): string => {
    if (s.length > maxLength) return s;
    const kept = pool.get(s);
    if (kept !== undefined) return kept;
    pool.set(s, s);
    return s;
  };
  const visit = (v: unknown): unknown => {
    if (typeof v === 'string') return one(v);
    if (v === null || typeof v !== 'object' || seen.has(v) || ArrayBuffer.isView(v)) return v;
    seen.add(v);
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) v[i] = visit(v[i]);
    } else if (v instanceof Map) {
      const entries = [...v];
      v.clear();
      for (const [k, x] of entries) v.set(visit(k), visit(x));
    } else if (v instanceof Set) {
      const items = [...v];
      v.clear();
      for (const x of items) v.add(visit(x));
    } else if (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null) {
      const o = v as Record<string, unknown>;
      for (const key of Object.keys(o)) o[key] = visit(o[key]);
    }
    return v;
  };
  return visit(value) as T;
}
