import { createHash } from 'node:crypto';
import type { IndexedTuple } from '../graph-index.ts';
import { countTermMatches, type GraphCandidateSource } from '../graph-source.ts';

/**
 * A process's memory of what a remote graph source (Neo4j) answered: each term's postings, each entity's tuples, each
 * probe's nearest entities, each path, each paper's tuples and the tuples themselves, until the graph changes. Every
 * graph question at ten times the shared corpus cost Neo4j ~0.7 s of CPU uncached (bench scale-out: Neo4j a full core
 * whatever the number of app processes, and the graph questions the ones past their time), most of it on look-ups
 * that the next question repeats: the frequent terms and entities ("band gap", TiO2) are the costly ones and the
 * ones questions share. Results are those of the source (the parity suite runs through this); what changes is only
 * how often Neo4j is asked.
 *
 * Bounded by an estimate of the memory it holds (least recently used first out). The graph's version (a stamp
 * `graph:sync` writes) is read again at most every `checkEveryMs`; a new one empties the memory, so a process answers
 * from the old graph for at most that long after a sync.
 */
export interface GraphSourceCacheOptions {
  /** What the memory may hold, estimated in bytes (0: nothing is kept). */
  maxBytes: number;
  /** The graph's version: what the source answers depends on it alone. */
  version: () => Promise<string>;
  /** How long a version read stands. */
  checkEveryMs?: number;
}

/** How often each kind of look-up was answered from memory (for the health panel and the bench). */
export interface GraphSourceCacheStats {
  hits: number;
  misses: number;
  bytes: number;
  version: string | null;
}

/** Bytes an id list, a tuple or an entry's key is estimated to take on the heap. */
const ID_BYTES = 64;
const ENTRY_BYTES = 160;
const tupleBytes = (t: IndexedTuple) => 600 + 2 * ((t.sentence?.length ?? 0) + t.subjectLabel.length + t.objectLabel.length) + 40 * t.terms.length;

export function cachedGraphSource(source: GraphCandidateSource, opts: GraphSourceCacheOptions): GraphCandidateSource & { cacheStats(): GraphSourceCacheStats } {
  const { maxBytes, checkEveryMs = 10_000 } = opts;
  /** Insertion order is recency: a hit moves its entry to the end, eviction takes from the front. */
  const entries = new Map<string, { value: unknown; bytes: number }>();
  let bytes = 0;
  let hits = 0;
  let misses = 0;
  let version: string | null = null;
  let checked: Promise<void> | null = null;
  let checkedAt = -Infinity;

  /** Reads the version when the last read is older than `checkEveryMs`; a new one empties the memory. */
  const current = (): Promise<void> => {
    if (checked && performance.now() - checkedAt < checkEveryMs) return checked;
    checkedAt = performance.now();
    checked = opts.version().then(
      (v) => {
        if (v !== version) {
          entries.clear();
          bytes = 0;
          version = v;
        }
      },
      (error) => {
        checked = null; // read again by the next look-up
        throw error;
      },
    );
    return checked;
  };

  const put = (key: string, value: unknown, size: number) => {
    if (size > maxBytes / 8) return; // one answer may not push out most of the others
    const old = entries.get(key);
    if (old) bytes -= old.bytes;
    entries.delete(key);
    entries.set(key, { value, bytes: size });
    bytes += size;
    for (const [k, e] of entries) {
      if (bytes <= maxBytes) break;
      entries.delete(k);
      bytes -= e.bytes;
    }
  };
  const get = <T>(key: string): T | undefined => {
    const e = entries.get(key);
    if (!e) return undefined;
    entries.delete(key);
    entries.set(key, e);
    return e.value as T;
  };

  /**
   * Each key's answer from memory, the missing ones asked of `fetch` together (one round trip) and kept; `size` is
   * an answer's estimated bytes. `null`: the source has none for that key (kept too: asking again costs as much).
   */
  async function each<T>(kind: string, keys: string[], fetch: (missing: string[]) => Promise<Map<string, T>>, size: (v: T) => number) {
    await current();
    const out = new Map<string, T | null>();
    const missing: string[] = [];
    for (const k of keys) {
      const v = get<T | null>(`${kind}\u0000${k}`);
      if (v === undefined) missing.push(k);
      else out.set(k, v);
    }
    hits += keys.length - missing.length;
    misses += missing.length;
    if (missing.length) {
      const asked = version;
      const got = await fetch(missing);
      for (const k of missing) {
        const v = got.get(k) ?? null;
        out.set(k, v);
        // An answer that raced a change of version belongs to neither: not kept.
        if (asked === version) put(`${kind}\u0000${k}`, v, ENTRY_BYTES + (v === null ? 0 : size(v)));
      }
    }
    return out;
  }
  const one = async <T>(kind: string, key: string, fetch: () => Promise<T>, size: (v: T) => number): Promise<T> =>
    (await each(kind, [key], async () => new Map([[key, await fetch()]]), size)).get(key) as T;
  const idsBytes = (ids: string[]) => ID_BYTES * ids.length;
  const present = <T>(m: Map<string, T | null>) => new Map([...m].filter((e): e is [string, T] => e[1] !== null));

  const termPostings = async (terms: string[], maxTuples: number) =>
    present(await each(`term:${maxTuples}`, [...new Set(terms)], (missing) => source.termPostings(missing, maxTuples), idsBytes));

  return {
    kind: source.kind,
    async tupleCount() {
      return one(
        'count',
        '',
        () => source.tupleCount(),
        () => 0,
      );
    },
    termPostings,
    async termMatches(terms, maxTuples, min) {
      const postings = await termPostings(terms, maxTuples);
      // In the terms' order, as the source's own answer is.
      return countTermMatches(new Map(terms.filter((t) => postings.has(t)).map((t) => [t, postings.get(t)!])), min);
    },
    async entityTuples(keys) {
      const found = present(await each('entity', keys, (missing) => source.entityTuples(missing), idsBytes));
      return new Map(keys.filter((k) => found.has(k)).map((k) => [k, found.get(k)!]));
    },
    async similarEntities(probes, minCosine) {
      // Per probe (a question's words repeat in other questions), merged as the source merges its probes: each
      // entity's best cosine over them.
      const usable = probes.filter((p) => p.some((x) => x !== 0));
      const keyOf = (p: Float32Array) =>
        createHash('sha1')
          .update(new Uint8Array(p.buffer, p.byteOffset, p.byteLength))
          .digest('base64');
      const byKey = new Map(usable.map((p) => [keyOf(p), p]));
      const found = await each(
        `similar:${minCosine}`,
        [...byKey.keys()],
        async (missing) => new Map(await Promise.all(missing.map(async (k) => [k, await source.similarEntities([byKey.get(k)!], minCosine)] as const))),
        (list) => list.reduce((n, e) => n + ENTRY_BYTES + idsBytes(e.tupleIds), 0),
      );
      const best = new Map<string, { key: string; cosine: number; tupleIds: string[] }>();
      for (const list of found.values()) for (const e of list ?? []) if (!best.has(e.key) || best.get(e.key)!.cosine < e.cosine) best.set(e.key, e);
      return [...best.values()];
    },
    pathTuples: (from, to, maxHops, limit) =>
      one('path', `${from}\u0000${to}\u0000${maxHops}\u0000${limit}`, () => source.pathTuples(from, to, maxHops, limit), idsBytes),
    paperTuples: (paperId) => one('paper', paperId, () => source.paperTuples(paperId), idsBytes),
    // Asked by a question's nearest paragraphs, which another question rarely shares whole: not kept.
    paragraphTuples: (paragraphIds) => source.paragraphTuples(paragraphIds),
    async tuples(ids) {
      const found = present(await each('tuple', ids, (missing) => source.tuples(missing), tupleBytes));
      return new Map(ids.filter((id) => found.has(id)).map((id) => [id, found.get(id)!]));
    },
    cacheStats: () => ({ hits, misses, bytes, version }),
  };
}
