import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerQuestion } from '../answer/answer.ts';
import type { RetrievalIndex } from '../retrieval/index.ts';
import { openTestDatabase } from '../../scripts/test-support/database.ts';
import { fixtureIndex } from '../../scripts/test-support/retrieval-fixtures.ts';
import type { Database } from './database.ts';
import { getAnswer, listAnswers, saveAnswer } from './answers.ts';
import { answerText } from '../answer/types.ts';
import { readStoredAnswer, STORED_ANSWER_VERSION, storedPayload } from '../answer/stored.ts';

let db: Database;
let index: RetrievalIndex;
beforeAll(async () => {
  db = await openTestDatabase();
  index = await fixtureIndex();
});
afterAll(() => db.close());

describe('stored answers', () => {
  it('are reopened by id exactly as given, and listed newest first, searchable by question', async () => {
    const a = await answerQuestion(index, 'Which paper reports a power density of 0.45 W cm⁻² for La0.6Sr0.4CoO3 at 873 K?');
    const b = await answerQuestion(index, 'Which paper reports a power density of 912 mW cm−2 for La0.6Sr0.4CoO3 at 700 °C?');
    const idA = await saveAnswer(db, storedPayload(a), answerText(a));
    const idB = await saveAnswer(db, storedPayload(b), answerText(b));
    const row = await getAnswer(db, idA);
    expect(row?.id).toBe(idA);
    const reopened = readStoredAnswer(row?.payload);
    if (!reopened.readable) throw new Error(reopened.problem);
    expect(reopened).toMatchObject({ storedVersion: STORED_ANSWER_VERSION, migratedFrom: null });
    expect(reopened.answer).toMatchObject({ question: a.question, shape: 'which-paper', mode: 'extractive' });
    expect(reopened.answer.sentences).toEqual(a.sentences);
    expect(reopened.answer.evidence.map((e) => e.id)).toEqual(a.evidence.map((e) => e.id));
    expect(await getAnswer(db, 'nosuchanswer00')).toBeNull();
    const all = await listAnswers(db);
    expect(all.map((x) => x.id).slice(0, 2)).toEqual([idB, idA]);
    expect(all[0]).toMatchObject({ abstained: true, shape: 'abstain' });
    expect((await listAnswers(db, { query: '0.45 W' })).map((x) => x.id)).toEqual([idA]);
  });
});
