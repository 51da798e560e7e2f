import fs from 'node:fs';
import path from 'node:path';
import { readGoldTuples, detectGoldFormat, type GoldFormat } from '../evaluation/graph-gold.ts';
import { scoreTuples, type ComparableTuple } from '../evaluation/tuple-metrics.ts';
import { paperTuples } from '../graph/build.ts';
import { openContentStream, readLines } from '../ingest/files.ts';
import { offlineExtractor } from '../structure/paragraph.ts';
import { buildPaperRecord } from '../structure/pipeline.ts';
import { sharedDataDir } from '../testing/shared-data.ts';

const usage = `usage: npm run eval:graph -- --gold <file> [--format polyie|supermat|sofc|mspt] [--corpus <papers.jsonl.gz>] [--backend offline] [--json <out>]

Extracts tuples from the gold paragraphs (text from the corpus file, default ../shared/data/corpus/papers.jsonl.gz)
with the offline backend, canonicalises both sides and prints precision, recall and F1 overall and per relation;
--json writes {"n_gold","n_pred","precision","recall","f1","per_relation":{...}}. Only predictions of the mapped
relation types in gold-annotated paragraphs are scored. The LLM tuple backend is not built yet.`;

const MAPPED: Record<GoldFormat, string[]> = { polyie: ['has_property'], supermat: ['has_property'], sofc: ['has_property'], mspt: ['synthesized_from', 'used_as'] };

async function main() {
  const args = process.argv.slice(2);
  const opt = (n: string) => {
    const i = args.indexOf(`--${n}`);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const gold = opt('gold');
  const format = (opt('format') as GoldFormat | undefined) ?? (gold ? detectGoldFormat(gold) : null);
  const shared = sharedDataDir();
  const corpusFile = opt('corpus') ?? (shared ? path.join(shared, 'corpus', 'papers.jsonl.gz') : undefined);
  if (!gold || !format || !MAPPED[format] || !corpusFile || (opt('backend') ?? 'offline') !== 'offline') {
    if ((opt('backend') ?? 'offline') !== 'offline') console.error('only --backend offline exists so far');
    console.error(usage);
    process.exit(2);
  }
  const t0 = performance.now();
  const goldTuples = await readGoldTuples(gold, format);
  const wanted = new Set(goldTuples.map((t) => t.paragraphId));
  const paperIds = new Set([...wanted].map((p) => p.split(':')[0]));
  // Paragraph texts of the annotated papers, from the corpus file.
  const predicted: ComparableTuple[] = [];
  for await (const line of readLines(await openContentStream(corpusFile), 64 * 1024 * 1024)) {
    if ('error' in line || !line.text.trim()) continue;
    const paper = JSON.parse(line.text) as { id: string; doi: string | null; title: string | null; paragraphs: { id: string; section: string | null; text: string }[] };
    if (!paperIds.has(paper.id)) continue;
    const paragraphs = paper.paragraphs.filter((p) => wanted.has(p.id)).map((p, i) => ({ id: p.id, ordinal: i, section: p.section, text: p.text, role: null, method: null }));
    const record = await buildPaperRecord({ id: paper.id, doi: paper.doi, title: paper.title, paragraphs, records: [] }, offlineExtractor);
    for (const t of paperTuples(record, paragraphs)) {
      if (!t.paragraphId || !MAPPED[format].includes(t.relation)) continue;
      predicted.push({ paragraphId: t.paragraphId, subject: t.subject.surface, relation: t.relation, object: t.relation === 'has_property' ? t.object.key : t.object.surface, value: t.value === null ? null : String(t.value) });
    }
  }
  const s = scoreTuples(goldTuples, predicted);
  const { matches, ...scores } = s;
  console.log(`eval:graph ${path.basename(gold)} (${format}, offline, ${wanted.size} paragraphs, ${((performance.now() - t0) / 1000).toFixed(1)} s): precision ${scores.precision.toFixed(3)}, recall ${scores.recall.toFixed(3)}, F1 ${scores.f1.toFixed(3)} (${matches.length} of ${scores.n_gold} gold, ${scores.n_pred} predicted)`);
  console.log(`relation            n_gold  n_pred  precision  recall     f1`);
  for (const [r, m] of Object.entries(scores.per_relation)) console.log(`${r.padEnd(18)} ${String(m.n_gold).padStart(7)} ${String(m.n_pred).padStart(7)}  ${m.precision.toFixed(3).padStart(9)}  ${m.recall.toFixed(3).padStart(6)}  ${m.f1.toFixed(3).padStart(5)}`);
  const out = opt('json');
  if (out) {
    fs.writeFileSync(out, JSON.stringify(scores, null, 2));
    console.log(`wrote ${out}`);
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
