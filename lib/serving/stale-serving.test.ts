import { describe, expect, it } from 'vitest';
import type { RetrievalIndex } from '../retrieval/index.ts';
import { createStaleServing, type ServedIndex, staleNotice } from './stale-serving.ts';

const served = (version: string, paragraphs = 8943): ServedIndex => ({
  version,
  index: null,
  info: { paragraphs, embedderId: 'ngram', embedderNote: null, buildSeconds: 1, vectorsIn: 'process' },
});
const usable = () => true;

describe('createStaleServing', () => {
  it('answers from the last index ready only while a job writes the corpus or the newer index is being built', () => {
    const stale = createStaleServing();
    expect(stale.instead({ version: 'stamp-5', writing: true }, true, usable)).toBeNull(); // nothing ready yet: wait
    expect(stale.behind('stamp-5')).toBe(false);
    stale.served(served('stamp-5'));
    expect(stale.behind('stamp-5')).toBe(false);
    expect(stale.behind('stamp-9')).toBe(true);
    expect(stale.instead({ version: 'stamp-5', writing: true }, false, usable)).toBeNull(); // it is the current one
    expect(stale.instead({ version: 'stamp-9', writing: true }, false, () => false)).toBeNull(); // it cannot answer
    expect(stale.instead({ version: 'stamp-9', writing: true }, false, usable)?.version).toBe('stamp-5');
    expect(stale.instead({ version: 'stamp-9', writing: false }, true, usable)?.version).toBe('stamp-5');
    // Nothing writes and nothing is built: the question waits for the current version, as a curator's change needs.
    expect(stale.instead({ version: 'stamp-9', writing: false }, false, usable)).toBeNull();
  });

  it('keeps the newest ready version when an older one reports late, and forgets this thread’s copy when asked', () => {
    const stale = createStaleServing();
    stale.served({ ...served('stamp-12'), index: {} as RetrievalIndex });
    stale.served(served('stamp-10', 1));
    expect(stale.instead({ version: 'stamp-13', writing: true }, false, usable)?.info.paragraphs).toBe(8943);
    stale.dropIndex();
    expect(stale.instead({ version: 'stamp-13', writing: true }, false, (s) => s.index !== null)).toBeNull();
  });

  it('says whether a job is writing the corpus or its new index is being built, and what the earlier index holds', () => {
    expect(staleNotice(served('stamp-1'), { version: 'stamp-4', writing: true })).toBe(
      'An import or another job is changing the corpus: this searched the index from before it (8,943 paragraphs); what it adds is searched once it has finished.',
    );
    expect(staleNotice(served('stamp-1'), { version: 'stamp-4', writing: false })).toBe(
      'The corpus has changed and its new index is being built: this searched the index from before the change (8,943 paragraphs).',
    );
  });
});
