import { describe, expect, it } from 'vitest';
import { dot, normalise, type TextEmbedder } from '../embedding/embedder.ts';
import { embedPassages, passageTexts } from './passage-vectors.ts';
import { denseChunks } from './search.ts';

// Three invented paragraphs of one paper, two of them in one section chunk, and an embedder that counts what it reads.
const parts = {
  papers: new Map([['a', { id: 'a', title: 'A cathode' }]]),
  paragraphs: new Map([
    ['a:p1', { id: 'a:p1', paperId: 'a', text: 'first' }],
    ['a:p2', { id: 'a:p2', paperId: 'a', text: 'second' }],
    ['a:p3', { id: 'a:p3', paperId: 'a', text: 'third' }],
  ]),
};
const chunkOf = new Map([
  ['a:p1', 'a#0'],
  ['a:p2', 'a#0'],
  ['a:p3', 'a#1'],
]);
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
  it('read each paragraph once, and the structured space shares the raw vectors', async () => {
    const { embedder, read } = countingEmbedder();
    const dense = await embedPassages(parts, embedder);
    expect(read).toEqual(['first', 'second', 'third']);
    expect(dense.json).toBe(dense.raw);
    expect(passageTexts(parts).all()).toEqual(['first', 'second', 'third']);
  });

  it('score a section chunk by its closest paragraph, each chunk once', async () => {
    const { embedder } = countingEmbedder();
    const dense = await embedPassages(parts, embedder);
    const nearSecond = normalise(Float32Array.from([0.1, 1, 0.5]));
    const hits = await denseChunks({ json: { dense: dense.json }, chunkOf }, nearSecond, 8);
    expect(hits.map((h) => h.id)).toEqual(['a#0', 'a#1']);
    expect(hits[0].score).toBeCloseTo(dot(nearSecond, normalise(Float32Array.from([0, 1, 0]))), 6);
    expect((await denseChunks({ json: { dense: dense.json }, chunkOf }, nearSecond, 1)).map((h) => h.id)).toEqual(['a#0']);
  });

  it('add the title vector to the structured space when weighted, embedding titles only then', async () => {
    const { embedder, read } = countingEmbedder();
    const dense = await embedPassages(parts, embedder, 1);
    expect(read).toEqual(['first', 'second', 'third', 'A cathode']);
    expect(dense.json).not.toBe(dense.raw);
    // first + title = (1 + 1/√3, 1/√3, 1/√3), normalised.
    const expected = normalise(Float32Array.from([1 + 1 / Math.sqrt(3), 1 / Math.sqrt(3), 1 / Math.sqrt(3)]));
    // Held as int8 codes (PASSAGE_PRECISION): equal within quantization.
    expect(dense.json.similarity(expected, 'a:p1')).toBeCloseTo(1, 2);
    expect(dense.raw.similarity(expected, 'a:p1')).toBeLessThan(0.95);
    expect(passageTexts(parts).all(1)).toContain('A cathode');
  });
});
