import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerQuestion } from '../answer/answer.ts';
import type { RetrievalIndex } from '../retrieval/index.ts';
import { openTestDatabase } from '../../scripts/test-support/database.ts';
import { fixtureIndex } from '../../scripts/test-support/retrieval-fixtures.ts';
import type { Database } from './database.ts';
import { getAnswer, listAnswers, saveAnswer } from './answers.ts';
import { answerText } from '../answer/types.ts';

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
    const idA = await saveAnswer(db, a, answerText(a));
    const idB = await saveAnswer(db, b, answerText(b));
    const reopened = await getAnswer(db, idA);
    expect(reopened).toMatchObject({ id: idA, question: a.question, shape: 'which-paper', mode: 'extractive' });
    expect(reopened?.sentences).toEqual(a.sentences);
    expect(reopened?.evidence.map((e) => e.id)).toEqual(a.evidence.map((e) => e.id));
    expect(await getAnswer(db, 'nosuchanswer00')).toBeNull();
    const all = await listAnswers(db);
    expect(all.map((x) => x.id).slice(0, 2)).toEqual([idB, idA]);
    expect(all[0]).toMatchObject({ abstained: true, shape: 'abstain' });
    expect((await listAnswers(db, { query: '0.45 W' })).map((x) => x.id)).toEqual([idA]);
  });
});
