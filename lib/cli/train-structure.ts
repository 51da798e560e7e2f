import path from 'node:path';
import { config } from '../config.ts';
import { sharedDataDir } from '../common/shared-data.ts';
import { stopModelSessions } from '../embedding/model-session.ts';
import { trainAndSaveHeads, trainAndSaveMaterialTagger } from '../structurers/heads/training.ts';
import { sourcesIn, type TrainingSources } from '../structurers/heads/training-data.ts';
import { cliOptions } from './options.ts';

const usage = `usage: npm run train:structure -- [--data <dir>] [--role <jsonl>] [--method <jsonl>] [--materials <jsonl>] [--no-records]

Trains what the labelled paragraphs allow and caches it in the data folder (ASSAY_DATA_DIR/models/):
- the material tagger (materials' roles in synthesis paragraphs; no model): material-tagger.json;
- the structuring heads (paragraph role, synthesis method) on the local model's vectors: structuring-heads.json.
--data: a folder laid out like ../shared/data (default: ASSAY_SHARED_DATA or ../shared/data): its gold/kist files
and records/ are read. --role / --method: your own gold files, one {"id","label","text"} per line; --materials: one
{"id","text","entities":[{"type","text"}]} per line; added to (or, without a data folder, instead of) those.`;

async function main() {
  const args = process.argv.slice(2);
  const opt = cliOptions(args, ['data', 'role', 'method', 'materials'], ['no-records', 'help']);
  if (opt('help')) {
    console.log(usage);
    return;
  }
  const dataDir = opt('data') ?? sharedDataDir();
  const sources: TrainingSources = dataDir ? sourcesIn(path.resolve(dataDir)) : { gold: [], records: null };
  if (opt('no-records')) sources.records = null;
  const role = opt('role');
  const method = opt('method');
  if (role) sources.gold.push({ task: 'paragraph-role', file: path.resolve(role) });
  if (method) sources.gold.push({ task: 'synthesis-method', file: path.resolve(method) });
  const materials = opt('materials');
  if (materials) sources.gold.push({ task: 'material-role', file: path.resolve(materials) });
  if (sources.gold.length === 0) {
    console.error(`no labelled paragraphs found${dataDir ? ` in ${dataDir}` : ''}\n${usage}`);
    process.exit(2);
  }
  const cfg = config();
  if (sources.gold.some((g) => g.task === 'material-role')) {
    const { tagger, file, seconds } = await trainAndSaveMaterialTagger(cfg, sources);
    for (const s of tagger.sources) console.log(`  ${s.task.padEnd(17)} ${String(s.rows).padStart(5)} paragraphs from ${s.source}`);
    console.log(`material tagger ${tagger.id} written to ${file} in ${seconds.toFixed(1)} s`);
    console.log(
      cfg.materialTagger === 'auto'
        ? 'materials of papers imported from now on take their roles from it; `npm run structure` re-structures those imported before'
        : 'ASSAY_MATERIAL_TAGGER=off: set it to auto (the default) to give materials their roles with it',
    );
  }
  if (sources.gold.some((g) => g.task === 'paragraph-role' || g.task === 'synthesis-method')) {
    const { heads, file, seconds } = await trainAndSaveHeads(cfg, sources, console.log);
    for (const s of heads.sources) console.log(`  ${s.task.padEnd(17)} ${String(s.rows).padStart(5)} rows from ${s.source}`);
    console.log(`structuring heads ${heads.id} (${heads.encoder}) written to ${file} in ${seconds.toFixed(1)} s`);
    console.log(
      cfg.structuringHeads === 'auto'
        ? 'papers imported from now on are structured with them; `npm run structure` re-structures those imported before'
        : 'set ASSAY_STRUCTURING_HEADS=auto to structure papers with them (off by default)',
    );
  }
  await stopModelSessions();
}

main().catch((error) => {
  console.error((error as Error).message);
  process.exit(1);
});
