import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import nlp from 'compromise';
import { tokenize } from '../../lib/graph/clause-chunker.ts';
import { materialEntity } from '../../lib/graph/tuples.ts';
import { splitSentences } from '../../lib/structure/sentences.ts';
import { sharedDataDir } from '../../lib/common/shared-data.ts';

export const taggerUsage = 'npm run bench -- tagger [--paragraphs n]';

/**
 * Why the clause reader tags with its own chunker rather than compromise (the maintained tagger the project
 * already uses for keyword lemmas): on paragraphs of the shared corpus, both tag every sentence, and this prints
 * their speed (characters a second, and the time the whole corpus would take) and how they agree on what the
 * chunker needs: which words are verbs, and whether chemical formulas are nouns.
 */
export async function benchTagger(args: string[]) {
  const n = Number(args[args.indexOf('--paragraphs') + 1] || 2000);
  const dir = sharedDataDir('corpus');
  if (!dir) throw new Error('../shared/data/corpus (or ASSAY_SHARED_DATA) is absent');
  const lines = zlib
    .gunzipSync(fs.readFileSync(path.join(dir, 'papers.jsonl.gz')))
    .toString('utf8')
    .split('\n')
    .filter(Boolean);
  const all = lines.flatMap((l) => (JSON.parse(l) as { paragraphs: { text: string }[] }).paragraphs.map((p) => p.text));
  const corpusChars = all.reduce((t, p) => t + p.length, 0);
  // Every k-th paragraph, so the sample spans the corpus's sources and domains.
  const step = Math.max(1, Math.floor(all.length / n));
  const sentences = all
    .filter((_, i) => i % step === 0)
    .slice(0, n)
    .flatMap((p) => splitSentences(p).map((s) => s.text));
  const chars = sentences.reduce((t, s) => t + s.length, 0);

  let t = performance.now();
  const ours = sentences.map((s) => tokenize(s));
  const oursSeconds = (performance.now() - t) / 1000;
  t = performance.now();
  const theirs = sentences.map((s) => (nlp(s).json() as { terms: { text: string; tags: string[] }[] }[]).flatMap((x) => x.terms));
  const theirsSeconds = (performance.now() - t) / 1000;

  // Agreement by word: the first occurrence of each word of a sentence in both tokenisations.
  let bothVerb = 0;
  let oursVerb = 0;
  let theirsVerb = 0;
  let formulas = 0;
  let formulaNoun = 0;
  let unknownFormula = 0;
  sentences.forEach((_, i) => {
    const tags = new Map<string, string[]>();
    for (const term of theirs[i]) if (!tags.has(term.text)) tags.set(term.text, term.tags);
    for (const tok of ours[i]) {
      const theirTags = tags.get(tok.text);
      if (!theirTags || !/^[A-Za-z]/.test(tok.text)) continue;
      const mine = tok.tag === 'verb' || (tok.tag === 'aux' && tok.lemma !== 'be');
      const their = theirTags.includes('Verb') && !theirTags.includes('Auxiliary') && !theirTags.includes('Copula');
      if (mine) oursVerb++;
      if (their) theirsVerb++;
      if (mine && their) bothVerb++;
      if (/\d/.test(tok.text) && materialEntity(tok.text).key.startsWith('f:')) {
        formulas++;
        if (theirTags.includes('Noun')) formulaNoun++;
        if (theirTags.includes('Verb') || theirTags.includes('Adjective') || theirTags.includes('Adverb')) unknownFormula++;
      }
    }
  });
  const rate = (c: number, s: number) => Math.round(c / s);
  const pct = (a: number, b: number) => `${((100 * a) / Math.max(b, 1)).toFixed(1)}%`;
  console.log(`${sentences.length} sentences (${chars.toLocaleString('en')} characters) from ${n} paragraphs of the shared corpus`);
  console.log(
    `clause chunker: ${oursSeconds.toFixed(2)} s, ${rate(chars, oursSeconds).toLocaleString('en')} characters/s → whole corpus (${corpusChars.toLocaleString('en')} characters) ${(corpusChars / rate(chars, oursSeconds)).toFixed(1)} s`,
  );
  console.log(
    `compromise:     ${theirsSeconds.toFixed(2)} s, ${rate(chars, theirsSeconds).toLocaleString('en')} characters/s → whole corpus ${(corpusChars / rate(chars, theirsSeconds)).toFixed(1)} s`,
  );
  console.log(
    `verbs (content verbs, not be): chunker ${oursVerb}, compromise ${theirsVerb}, both ${bothVerb}: compromise finds ${pct(bothVerb, oursVerb)} of the chunker's, the chunker ${pct(bothVerb, theirsVerb)} of compromise's`,
  );
  console.log(
    `chemical formulas: ${formulas}; compromise tags ${pct(formulaNoun, formulas)} as nouns and ${pct(unknownFormula, formulas)} as verbs, adjectives or adverbs`,
  );
  console.log(
    JSON.stringify({ sentences: sentences.length, chars, oursSeconds, theirsSeconds, oursVerb, theirsVerb, bothVerb, formulas, formulaNoun, unknownFormula }),
  );
}
