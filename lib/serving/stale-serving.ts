import { stampNumber } from '../db/retrieval-corpus.ts';
import type { RetrievalIndex } from '../retrieval/index.ts';

/** What the Find evidence screen and an earlier index's notice say of an index. */
export interface IndexInfo {
  paragraphs: number;
  embedderId: string;
  embedderNote: string | null;
  buildSeconds: number;
  /** Where dense search runs: in this process, or in the database (ASSAY_VECTORS=database). */
  vectorsIn: 'process' | 'pgvector';
}

/** An index ready to answer at its corpus version: this thread's (`index`), or the retrieval workers' (`index` null). */
export interface ServedIndex {
  version: string;
  index: RetrievalIndex | null;
  info: IndexInfo;
}

/** The corpus stamp as a question reads it: its version, and whether a job is writing the corpus now. */
export interface StampNow {
  version: string;
  writing: boolean;
}

export interface StaleServing {
  /** Remembers an index that is ready (one of an older version than the one remembered is ignored). */
  served(s: ServedIndex): void;
  /** Whether an index is ready and the corpus has moved on from it (only then is `instead` worth asking). */
  behind(version: string): boolean;
  /**
   * The index to answer from instead of waiting for `now.version`'s: the last one ready, while a job writes the corpus
   * or the newer index is `building`. Null: wait for it (nothing is writing, so a build now is the corpus's last).
   */
  instead(now: StampNow, building: boolean, usable: (s: ServedIndex) => boolean): ServedIndex | null;
  /** Forgets this thread's copy (the workers serve it now). */
  dropIndex(): void;
}

/**
 * The app answers from the last index ready while a job writes the corpus or a newer index is built. An import bumps
 * the corpus stamp with every batch it writes, and a question that waited for an index of each half-imported corpus
 * waited tens of seconds (p95 66 s while 300 papers were imported), for an index stale again once built. Once no job
 * writes, the next question waits for the current version's index as before (a curator's change is seen at once);
 * an import's own last stage builds it first. The CLI, the evaluation and tests always wait for the current version.
 */
export function createStaleServing(): StaleServing {
  let last: ServedIndex | null = null;
  return {
    served(s) {
      if (!last || stampNumber(s.version) >= stampNumber(last.version)) last = s;
    },
    behind: (version) => !!last && last.version !== version,
    instead(now, building, usable) {
      if (!last || last.version === now.version || !usable(last)) return null;
      return now.writing || building ? last : null;
    },
    dropIndex() {
      if (last?.index) last = { ...last, index: null };
    },
  };
}

/** What an answer from an earlier index says of it. */
export function staleNotice(served: ServedIndex, now: StampNow): string {
  const paragraphs = `${served.info.paragraphs.toLocaleString('en')} paragraphs`;
  return now.writing
    ? `An import or another job is changing the corpus: this searched the index from before it (${paragraphs}); what it adds is searched once it has finished.`
    : `The corpus has changed and its new index is being built: this searched the index from before the change (${paragraphs}).`;
}
