import fs from 'node:fs';
import path from 'node:path';
import { readGoldTuples, detectGoldFormat, MAPPED_RELATIONS, type GoldFormat } from '../evaluation/graph-gold.ts';
import { config } from '../config.ts';
import { getDatabase } from '../db/client.ts';
import { chatModel } from '../ai/providers.ts';
import { extractionCache } from '../db/extraction-cache.ts';
import { createLlmTupleExtractor, type TupleExtractor } from '../graph/llm-tuples.ts';
import { scoreTuples, type ComparableTuple } from '../evaluation/tuple-metrics.ts';
import { offlineTupleExtractor, paperTuples } from '../graph/build.ts';
import { openContentStream, readLines } from '../ingest/files.ts';
import { rulesExtractor } from '../structure/paragraph.ts';
import { configuredMaterialTagger } from '../structurers/select.ts';
import { buildPaperRecord } from '../structure/pipeline.ts';
import { sharedDataDir } from '../common/shared-data.ts';
import { cliOptions } from './options.ts';

const usage = `usage: npm run eval:graph -- --gold <file> [--format polyie|supermat|sofc|mspt|mulms] [--corpus <papers.jsonl.gz>] [--backend offline|llm] [--json <out>]

Extracts tuples from the gold paragraphs (text from the corpus file, default ../shared/data/corpus/papers.jsonl.gz),
canonicalises both sides and prints precision, recall and F1 overall and per relation; --json writes
{"n_gold","n_pred","precision","recall","f1","per_relation":{...}}. Only predictions of the mapped relation types in
gold-annotated paragraphs are scored. --backend llm extracts paragraph tuples with the configured chat model
(ASSAY_LLM_BASE_URL + ASSAY_CHAT_MODEL; answers cached in the database); record tuples come from the offline
structure either way.`;

async function main() {
  const args = process.argv.slice(2);
  const opt = cliOptions(args, ['gold', 'format', 'corpus', 'backend', 'json']);
  const gold = opt('gold');
  const format = (opt('format') as GoldFormat | undefined) ?? (gold ? detectGoldFormat(gold) : null);
  const shared = sharedDataDir();
  const corpusFile = opt('corpus') ?? (shared ? path.join(shared, 'corpus', 'papers.jsonl.gz') : undefined);
  const backend = opt('backend') ?? 'offline';
  if (!gold || !format || !MAPPED_RELATIONS[format] || !corpusFile || (backend !== 'offline' && backend !== 'llm')) {
    console.error(usage);
    process.exit(2);
  }
  const cfg = config();
  // The records' materials as the product reads them: the rules, with the trained material tagger's roles when cached.
  const tagger = configuredMaterialTagger(cfg);
  const structurer = rulesExtractor(tagger);
  let extractor: TupleExtractor = offlineTupleExtractor;
  if (backend === 'llm') {
    const chat = chatModel(cfg);
    if (!chat) {
      console.error('--backend llm needs a chat model: set ASSAY_LLM_BASE_URL and ASSAY_CHAT_MODEL (an OpenAI-compatible server)');
      process.exit(2);
    }
    extractor = createLlmTupleExtractor({ chat, cache: extractionCache(await getDatabase()) });
  }
  console.log(`records structured by ${structurer.id}`);
  const t0 = performance.now();
  const goldTuples = await readGoldTuples(gold, format);
  const wanted = new Set(goldTuples.map((t) => t.paragraphId));
  const paperIds = new Set([...wanted].map((p) => p.split(':')[0]));
  // Paragraph texts of the annotated papers, from the corpus file.
  const predicted: ComparableTuple[] = [];
  for await (const line of readLines(await openContentStream(corpusFile), 64 * 1024 * 1024)) {
    if ('error' in line || !line.text.trim()) continue;
    const paper = JSON.parse(line.text) as {
      id: string;
      doi: string | null;
      title: string | null;
      paragraphs: { id: string; section: string | null; text: string }[];
    };
    if (!paperIds.has(paper.id)) continue;
    const paragraphs = paper.paragraphs
      .filter((p) => wanted.has(p.id))
      .map((p, i) => ({ id: p.id, ordinal: i, section: p.section, text: p.text, role: null, method: null }));
    const record = await buildPaperRecord({ id: paper.id, doi: paper.doi, title: paper.title, paragraphs, records: [] }, structurer);
    for (const t of await paperTuples(record, paragraphs, extractor)) {
      if (!t.paragraphId || !MAPPED_RELATIONS[format].includes(t.relation)) continue;
      predicted.push({
        paragraphId: t.paragraphId,
        subject: t.subject.surface,
        relation: t.relation,
        object: t.relation === 'has_property' ? t.object.key : t.object.surface,
        value: t.value === null ? null : String(t.value),
      });
    }
  }
  const s = scoreTuples(goldTuples, predicted);
  const { matches, ...scores } = s;
  console.log(
    `eval:graph ${path.basename(gold)} (${format}, ${backend}, ${wanted.size} paragraphs, ${((performance.now() - t0) / 1000).toFixed(1)} s): precision ${scores.precision.toFixed(3)}, recall ${scores.recall.toFixed(3)}, F1 ${scores.f1.toFixed(3)} (${matches.length} of ${scores.n_gold} gold, ${scores.n_pred} predicted)`,
  );
  console.log(`relation            n_gold  n_pred  precision  recall     f1`);
  for (const [r, m] of Object.entries(scores.per_relation))
    console.log(
      `${r.padEnd(18)} ${String(m.n_gold).padStart(7)} ${String(m.n_pred).padStart(7)}  ${m.precision.toFixed(3).padStart(9)}  ${m.recall.toFixed(3).padStart(6)}  ${m.f1.toFixed(3).padStart(5)}`,
    );
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
