/**
 * A function's results kept by argument, at most `limit` of them: past the limit the memory is emptied and fills
 * again. Corpus text repeats the same few thousand formulas, names and sentences hundreds of thousands of times in
 * an import or an index build, so computing each once is most of the saving; emptying rather than evicting one by
 * one keeps every call a single Map lookup, and memory flat however large the corpus. Null and undefined results
 * are kept too. For a function of a string or another value compared by identity.
 *
 * The modules whose text stamps the graph's tuples (GRAPH_RULE_FILES, lib/graph/build.ts: terms.ts, formula.ts,
 * graph/tuples.ts) keep their own memos of this form: an edit there re-extracts every paper's tuples on the next
 * import, which a change that alters no tuple should not cost a library.
 */
export type BoundedMemo<K, V> = ((key: K) => V) & {
  readonly size: number;
  /** Forgets everything kept (a worker letting go of what its warm-up computed). */
  clear(): void;
};

export function boundedMemo<K, V>(compute: (key: K) => V, limit: number): BoundedMemo<K, V> {
  const kept = new Map<K, V>();
  const memo = (key: K): V => {
    if (kept.has(key)) return kept.get(key) as V;
    const value = compute(key);
    if (kept.size >= limit) kept.clear();
    kept.set(key, value);
    return value;
  };
  return Object.defineProperties(memo, { size: { get: () => kept.size }, clear: { value: () => kept.clear() } }) as BoundedMemo<K, V>;
}
