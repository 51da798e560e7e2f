import { describe, expect, it } from 'vitest';
import type { Evidence } from '../evidence/model.ts';
import { compareAnswers } from './compare.ts';
import type { Answer } from './types.ts';

const item = (id: string, doi: string, title: string): Evidence => ({
  id,
  kind: 'paragraph',
  text: 't',
  score: 1,
  coverage: null,
  matched: { materials: [], quantities: [], properties: [] },
  paperId: `paper-${doi}`,
  doi,
  section: null,
  provenance: [{ kind: 'paper', paperId: `paper-${doi}`, doi, title }],
});

const answer = (cites: string[][], evidence: Evidence[], abstain = false): Answer => ({
  question: 'q',
  pipeline: 'p',
  mode: 'extractive',
  modelId: null,
  shape: abstain ? 'abstain' : 'value',
  sentences: cites.map((c) => ({ text: 's', citations: c, verdict: 'supported', check: null, flags: [] })),
  table: null,
  disagreement: null,
  abstention: { abstain, reasons: abstain ? ['no-evidence'] : [], explanation: '', corpusHolds: null },
  evidence,
  notice: null,
  confidence: 1,
  trace: [],
  tokens: null,
  latencyMs: 1,
});

const a = item('paragraph:a', '10.1/a', 'Paper A');
const b = item('paragraph:b', '10.1/b', 'Paper B');
const c = item('paragraph:c', '10.1/c', 'Paper C');

describe('compareAnswers', () => {
  it('says who leads with the same paper and which papers only one pipeline cites', () => {
    const cmp = compareAnswers([
      { label: 'hybrid', answer: answer([['paragraph:a'], ['paragraph:b']], [a, b]) },
      { label: 'graph', answer: answer([['paragraph:a']], [a, c]) },
    ]);
    expect(cmp.papers[0].map((p) => [p.title, p.citedBy])).toEqual([
      ['Paper A', ['hybrid', 'graph']],
      ['Paper B', ['hybrid']],
    ]);
    // Paper C is retrieved by graph but not cited: not a difference in the answers.
    expect(cmp.papers[1].map((p) => p.title)).toEqual(['Paper A']);
    expect(cmp.summary).toEqual(['hybrid and graph lead with the same paper: “Paper A”.', 'Only hybrid cites “Paper B”.']);
  });
  it('names different leading papers and abstentions', () => {
    const cmp = compareAnswers([
      { label: 'hybrid', answer: answer([['paragraph:a']], [a]) },
      { label: 'graph', answer: answer([['paragraph:c']], [c]) },
      { label: 'vector', answer: answer([[]], [b], true) },
    ]);
    expect(cmp.summary).toEqual([
      'They lead with different papers: hybrid with “Paper A”; graph with “Paper C”.',
      'vector abstains: the corpus does not support an answer for it.',
      'Only hybrid cites “Paper A”.',
      'Only graph cites “Paper C”.',
    ]);
    expect(cmp.papers[2]).toEqual([]);
  });
});
