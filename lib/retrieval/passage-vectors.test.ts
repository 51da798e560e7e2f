import { describe, expect, it } from 'vitest';
import { dot, normalise, type TextEmbedder } from '../embedding/embedder.ts';
import { embedPassages, passageTexts } from './passage-vectors.ts';

// Three invented paragraphs, two in one section chunk, and an embedder that counts what it reads.
const parts = {
  papers: new Map([['a', { id: 'a', title: 'A cathode' }]]),
  paragraphs: new Map([
    ['a:p1', { id: 'a:p1', paperId: 'a', text: 'first' }],
    ['a:p2', { id: 'a:p2', paperId: 'a', text: 'second' }],
    ['a:p3', { id: 'a:p3', paperId: 'a', text: 'third' }],
  ]),
  chunks: new Map([
    ['a#0', { id: 'a#0', paperId: 'a', paragraphIds: ['a:p1', 'a:p2'] }],
    ['a#1', { id: 'a#1', paperId: 'a', paragraphIds: ['a:p3'] }],
  ]),
};
const axes: Record<string, number[]> = { first: [1, 0, 0], second: [0, 1, 0], third: [0, 0, 1], 'A cathode': [1, 1, 1] };

function countingEmbedder() {
  const read: string[] = [];
  const embedder: TextEmbedder = {
    id: 'axes',
    dimensions: 3,
    embed: async (texts) => {
      read.push(...texts);
      return texts.map((t) => normalise(Float32Array.from(axes[t])));
    },
  };
  return { embedder, read };
}

describe('passage vectors', () => {
  it('read each paragraph once; chunks are the mean of their paragraphs, the structured space shares the raw vectors', async () => {
    const { embedder, read } = countingEmbedder();
    const dense = await embedPassages(parts, embedder);
    expect(read).toEqual(['first', 'second', 'third']);
    expect(dense.json).toBe(dense.raw);
    const q = normalise(Float32Array.from([1, 1, 0]));
    // The chunk of the first two paragraphs points between them, exactly at the query.
    expect(dense.chunks.similarity(q, 'a#0')).toBeCloseTo(1, 6);
    expect(dense.chunks.similarity(q, 'a#1')).toBeCloseTo(0, 6);
    expect(dense.raw.similarity(q, 'a:p1')).toBeCloseTo(Math.SQRT1_2, 6);
    expect(passageTexts(parts).all()).toEqual(['first', 'second', 'third']);
  });

  it('add the title vector when weighted, embedding titles only then', async () => {
    const { embedder, read } = countingEmbedder();
    const dense = await embedPassages(parts, embedder, { json: 1, chunk: 1 });
    expect(read).toEqual(['first', 'second', 'third', 'A cathode']);
    expect(dense.json).not.toBe(dense.raw);
    const title = normalise(Float32Array.from([1, 1, 1]));
    // first + title = (1 + 1/√3, 1/√3, 1/√3), normalised: closer to the title than the paragraph alone.
    expect(dense.json.similarity(title, 'a:p1')).toBeGreaterThan(dense.raw.similarity(title, 'a:p1'));
    const expected = normalise(Float32Array.from([1 + 1 / Math.sqrt(3), 1 / Math.sqrt(3), 1 / Math.sqrt(3)]));
    expect(dense.json.similarity(expected, 'a:p1')).toBeCloseTo(dot(expected, expected), 6);
    expect(passageTexts(parts).all({ json: 1, chunk: 0 })).toContain('A cathode');
  });
});
