import { describe, expect, it } from 'vitest';
import { createStaleServing, type ServedIndex, staleNotice } from './stale-serving.ts';

const served = (version: string, paragraphs = 8943): ServedIndex => ({
  version,
  index: null,
  info: { paragraphs, embedderId: 'ngram', embedderNote: null, buildSeconds: 1, vectorsIn: 'process' },
});
const usable = () => true;

describe('createStaleServing', () => {
  it('answers from the last served index only while the corpus is newer, and starts one build once the stamp stands still', async () => {
    const builds: string[] = [];
    let finish: () => void = () => {};
    const stale = createStaleServing({
      quietSeconds: 10,
      build: (v) => {
        builds.push(v);
        return new Promise<void>((r) => {
          finish = r;
        });
      },
      log: () => {},
    });
    expect(stale.instead({ version: 'stamp-5', stillSeconds: 60 }, usable)).toBeNull(); // nothing served yet: wait
    stale.served(served('stamp-5'));
    expect(stale.instead({ version: 'stamp-5', stillSeconds: 60 }, usable)).toBeNull(); // current
    expect(stale.instead({ version: 'stamp-9', stillSeconds: 60 }, () => false)).toBeNull(); // cannot answer
    // Still being written: the earlier index answers and nothing is built.
    expect(stale.instead({ version: 'stamp-9', stillSeconds: 0.2 }, usable)?.version).toBe('stamp-5');
    expect(builds).toEqual([]);
    // Still: one build, however many ask meanwhile, even after the stamp moved again.
    stale.instead({ version: 'stamp-9', stillSeconds: 12 }, usable);
    stale.instead({ version: 'stamp-9', stillSeconds: 13 }, usable);
    stale.instead({ version: 'stamp-11', stillSeconds: 30 }, usable);
    expect(builds).toEqual(['stamp-9']);
    let settled = false;
    void stale.settled().then(() => {
      settled = true;
    });
    await Promise.resolve();
    expect(settled).toBe(false);
    finish();
    await stale.settled();
    stale.instead({ version: 'stamp-11', stillSeconds: 30 }, usable);
    expect(builds).toEqual(['stamp-9', 'stamp-11']);
  });

  it('keeps the newest served version when an older build reports late, and forgets this thread’s copy when asked', () => {
    const stale = createStaleServing({ quietSeconds: 10, build: async () => {}, log: () => {} });
    stale.served({ ...served('stamp-12'), index: {} as ServedIndex['index'] });
    stale.served(served('stamp-10', 1));
    expect(stale.instead({ version: 'stamp-13', stillSeconds: 0 }, usable)?.info.paragraphs).toBe(8943);
    stale.dropIndex();
    expect(stale.instead({ version: 'stamp-13', stillSeconds: 0 }, (s) => s.index !== null)).toBeNull();
  });

  it('logs a failed build and lets the next question try again', async () => {
    const lines: string[] = [];
    let calls = 0;
    const stale = createStaleServing({
      quietSeconds: 0,
      build: async () => {
        calls++;
        throw new Error('disk full');
      },
      log: (l) => lines.push(l),
    });
    stale.served(served('stamp-1'));
    stale.instead({ version: 'stamp-2', stillSeconds: 1 }, usable);
    await stale.settled();
    expect(lines[0]).toContain('disk full');
    stale.instead({ version: 'stamp-2', stillSeconds: 1 }, usable);
    expect(calls).toBe(2);
  });

  it('says whether the corpus is still being written or its index is being built, and what the earlier index holds', () => {
    expect(staleNotice(served('stamp-1'), { version: 'stamp-4', stillSeconds: 1 }, 10)).toBe(
      'The corpus is being changed (an import or a rebuild is writing to it): this searched the index from before the change (8,943 paragraphs), so what was added or changed since is not searched yet.',
    );
    expect(staleNotice(served('stamp-1'), { version: 'stamp-4', stillSeconds: 14.6 }, 10)).toMatch(
      /^The corpus changed 15 s ago and its new index is being built:/,
    );
  });
});
