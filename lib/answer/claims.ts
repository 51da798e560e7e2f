import { type Evidence, evidenceById } from '../evidence/model.ts';
import { splitSentences } from '../structure/sentences.ts';
import { guardCitations, type ShownBlocks } from './citations.ts';
import type { AnswerSentence } from './types.ts';
import { verifySentences } from './verify.ts';

/**
 * One claim of an answer, reported on its own: the sentence (guarded and checked) at its place in the answer.
 * While a model writes, `end` is where the sentence ends in the text written so far, so a reader can show the
 * checked sentences and, after them, the part still being written.
 */
export interface AnswerClaim {
  index: number;
  sentence: AnswerSentence;
  end?: number;
}

/**
 * Checks a model's sentences while it writes them: every sentence that is complete (another one has begun after
 * it) passes the citation guard and the claim checks at once and is reported, so verdicts appear as the answer
 * streams instead of after it. Numbering matches the finished answer's sentences (`guardCitations` on the whole
 * text): sentences left empty by the guard are skipped in both.
 */
export function claimStream(pool: Evidence[], shown: ShownBlocks, report: (claim: AnswerClaim) => void): { push(delta: string): void } {
  const byId = evidenceById(pool);
  let text = '';
  let done = 0; // sentences of the raw text already handled
  let index = 0; // claims reported
  return {
    push(delta) {
      text += delta;
      // The last piece may still be growing; the ones before it are finished.
      const finished = splitSentences(text).slice(0, -1);
      for (; done < finished.length; done++) {
        const raw = finished[done];
        for (const guarded of guardCitations(raw.text, shown)) {
          report({ index, sentence: verifySentences([guarded], byId)[0], end: raw.end });
          index++;
        }
      }
    },
  };
}
