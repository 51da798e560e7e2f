import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../scripts/test-support/fixtures.ts';
import { loadQuestions, QuestionFileError } from './questions.ts';

const write = (lines: string[]) => {
  const file = path.join(tempDir(), 'q.jsonl');
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
};
const ok = JSON.stringify({
  id: 'a',
  type: 'doi',
  question: 'Which paper?',
  answer_doi: '10.1/x',
  answer_paper_id: 'p',
  answer_value: null,
  evidence: null,
  source: 'S',
});

describe('loadQuestions', () => {
  it('reads valid lines, skipping blank ones', async () => {
    const qs = await loadQuestions(write([ok, '', JSON.stringify({ id: 'b', type: 'unanswerable', question: 'What?' })]));
    expect(qs.map((q) => q.id)).toEqual(['a', 'b']);
  });
  it('names the file and line of a malformed question', async () => {
    const file = write([ok, '{"id": "c", "type": "doi"}']);
    await expect(loadQuestions(file)).rejects.toThrow(QuestionFileError);
    await expect(loadQuestions(file)).rejects.toThrow(/q\.jsonl:2: question/);
    await expect(loadQuestions(write([ok, 'not json']))).rejects.toThrow(/:2: not JSON/);
    await expect(loadQuestions(write([ok, ok]))).rejects.toThrow(/duplicate question id a/);
  });
  it('reports a missing file clearly', async () => {
    await expect(loadQuestions('/nonexistent/questions.jsonl')).rejects.toThrow(/cannot read the question file/);
  });
  it('takes the gold of the question its gold_from names, of the same type, and says when it cannot', async () => {
    const goldFile = write([ok]);
    const own = (gold_from: string, type = 'doi') => JSON.stringify({ id: 'mine', type, question: 'which paper, in my words', gold_from });
    const ownFile = path.join(path.dirname(goldFile), 'mine.jsonl');
    const load = async (line: string) => {
      fs.writeFileSync(ownFile, `${line}\n`);
      return loadQuestions(ownFile);
    };
    const [q] = await load(own('q.jsonl#a'));
    expect(q).toMatchObject({ id: 'mine', question: 'which paper, in my words', answer_doi: '10.1/x', answer_paper_id: 'p' });
    await expect(load(own('q.jsonl#nope'))).rejects.toThrow(/mine\.jsonl:1: q\.jsonl#nope names no question/);
    await expect(load(own('q.jsonl#a', 'value'))).rejects.toThrow(/is a doi question, not a value one/);
    await expect(load(own('absent.jsonl#a'))).rejects.toThrow(/the gold comes from .*absent\.jsonl, which cannot be read/);
  });
});
