import type { RetrievalIndex } from '../retrieval/index.ts';

/** What the Find evidence screen and a stale answer's notice say of an index. */
export interface IndexInfo {
  paragraphs: number;
  embedderId: string;
  embedderNote: string | null;
  buildSeconds: number;
  /** Where dense search runs: in this process, or in the database (ASSAY_VECTORS=database). */
  vectorsIn: 'process' | 'pgvector';
}

/** An index that has answered at its corpus version: this thread's (`index`), or the retrieval workers' (`index` null). */
export interface ServedIndex {
  version: string;
  index: RetrievalIndex | null;
  info: IndexInfo;
}

/** The corpus stamp as a question reads it: its version, and how long it has not moved. */
export interface StampNow {
  version: string;
  stillSeconds: number;
}

export interface StaleServing {
  /** Remembers an index that answered (an older version than the one remembered is ignored). */
  served(s: ServedIndex): void;
  /** The index to answer from instead of waiting for `now.version`'s; starts that build once the corpus is still. Null: wait. */
  instead(now: StampNow, usable: (s: ServedIndex) => boolean): ServedIndex | null;
  /** Forgets this thread's copy (the workers serve the same index now). */
  dropIndex(): void;
  /** Settles once a build this started has ended, at once when none runs (the import's warm-up waits for it first). */
  settled(): Promise<void>;
}

const stampNumber = (version: string): number => Number(version.slice(version.lastIndexOf('-') + 1)) || 0;

/**
 * The app answers from the index it last served while the index of a newer corpus version is made. An import bumps
 * the corpus stamp with every batch it writes, and a question that waited for an index of each half-imported corpus
 * waited tens of seconds (p95 66 s while 300 papers were imported, and the index was stale again once built). The newer
 * index is built once the stamp has stood still for `quietSeconds` (an import's own last stage builds it at once), one
 * build at a time; the CLI and tests do not use this and always wait for the current version.
 */
export function createStaleServing(opts: { quietSeconds: number; build: (version: string) => Promise<unknown>; log: (line: string) => void }): StaleServing {
  let last: ServedIndex | null = null;
  let refreshing: Promise<void> | null = null;
  return {
    served(s) {
      if (!last || stampNumber(s.version) >= stampNumber(last.version)) last = s;
    },
    instead(now, usable) {
      if (!last || last.version === now.version || !usable(last)) return null;
      if (!refreshing && now.stillSeconds >= opts.quietSeconds) {
        const started = opts.build(now.version).then(
          () => {},
          (error) => opts.log(`the index of the changed corpus could not be built (${(error as Error).message}); the next question tries again`),
        );
        refreshing = started;
        void started.then(() => {
          if (refreshing === started) refreshing = null;
        });
      }
      return last;
    },
    dropIndex() {
      if (last?.index) last = { ...last, index: null };
    },
    settled: () => refreshing ?? Promise.resolve(),
  };
}

/** What an answer from an earlier index says of it. */
export function staleNotice(served: ServedIndex, now: StampNow, quietSeconds: number): string {
  const change =
    now.stillSeconds < quietSeconds
      ? 'The corpus is being changed (an import or a rebuild is writing to it)'
      : `The corpus changed ${Math.round(now.stillSeconds)} s ago and its new index is being built`;
  return `${change}: this searched the index from before the change (${served.info.paragraphs.toLocaleString('en')} paragraphs), so what was added or changed since is not searched yet.`;
}
