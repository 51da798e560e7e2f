import { describe, expect, it } from 'vitest';
import { fixtureIndex } from '../../scripts/test-support/retrieval-fixtures.ts';
import { answerQuestion } from './answer.ts';
import { readStoredAnswer, STORED_ANSWER_VERSION, storedPayload } from './stored.ts';

/** The answer's JSON as the database gives it back. */
const roundTrip = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe('stored answers, versioned', () => {
  it('read back what was written, in the current format', async () => {
    const answer = await answerQuestion(await fixtureIndex(), 'Which paper reports a power density of 0.45 W cm⁻² for La0.6Sr0.4CoO3 at 873 K?');
    const read = readStoredAnswer(roundTrip(storedPayload(answer)));
    expect(read).toMatchObject({ readable: true, storedVersion: STORED_ANSWER_VERSION, migratedFrom: null });
    if (read.readable) expect(read.answer).toEqual(roundTrip(answer));
  });

  it('migrate an answer stored before the format had a version (format 1), said as migrated', async () => {
    const answer = await answerQuestion(await fixtureIndex(), 'What Tc does MgB2 have?');
    // Format 1: no version, and none of the fields added since (each optional in the current format).
    const { differences: _d, ...abstention } = answer.abstention;
    const old = { ...(roundTrip(answer) as object), abstention, unverified: undefined, scope: undefined, costUsd: undefined };
    const read = readStoredAnswer(roundTrip(old));
    expect(read).toMatchObject({ readable: true, storedVersion: 1, migratedFrom: 1 });
  });

  it('show an answer of an unknown or newer format, or of the wrong shape, as such: never cast', async () => {
    expect(readStoredAnswer({ storedVersion: STORED_ANSWER_VERSION + 1, question: 'q?' })).toEqual({
      readable: false,
      storedVersion: STORED_ANSWER_VERSION + 1,
      problem: expect.stringMatching(/newer Assay/),
      question: 'q?',
    });
    const broken = readStoredAnswer({ storedVersion: STORED_ANSWER_VERSION, question: 'q?', sentences: 'not a list' });
    expect(broken).toMatchObject({ readable: false, question: 'q?', problem: expect.stringMatching(/does not have the shape/) });
    expect(readStoredAnswer('text')).toMatchObject({ readable: false, question: null });
    expect(readStoredAnswer({ storedVersion: 'two' })).toMatchObject({ readable: false, problem: expect.stringMatching(/no readable format version/) });
  });
});
