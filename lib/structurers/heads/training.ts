import fs from 'node:fs';
import type { AssayConfig } from '../../config.ts';
import { BGE_MODEL } from '../../embedding/bge-model.ts';
import { modelSession } from '../../embedding/model-session.ts';
import { fitMaterialTagger, fitStructuringHeads } from './fit.ts';
import { localModelEmbeds } from '../select.ts';
import { MENTION_FEATURES_VERSION } from './material-tagger.ts';
import {
  headsFile,
  loadHeads,
  loadMaterialTagger,
  type MaterialTaggerWeights,
  materialTaggerFile,
  saveHeads,
  saveMaterialTagger,
  type StructuringHeads,
} from './store.ts';
import { sourcesIn, type TrainingSources } from './training-data.ts';

/** Trains the heads on `sources` with the local model and caches them in the data folder. */
export async function trainAndSaveHeads(
  cfg: AssayConfig,
  sources: TrainingSources,
  log: (line: string) => void = () => {},
): Promise<{ heads: StructuringHeads; file: string; seconds: number }> {
  const started = performance.now();
  const model = await modelSession(cfg, log);
  const heads = await fitStructuringHeads(sources, (texts) => model.embed(texts), BGE_MODEL.id);
  const file = saveHeads(cfg.dataDir, heads);
  return { heads, file, seconds: (performance.now() - started) / 1000 };
}

/** Trains the material tagger on the sources' paragraphs with materials and caches it in the data folder (no model). */
export async function trainAndSaveMaterialTagger(
  cfg: AssayConfig,
  sources: TrainingSources,
): Promise<{ tagger: MaterialTaggerWeights; file: string; seconds: number }> {
  const started = performance.now();
  const tagger = await fitMaterialTagger(sources);
  const file = saveMaterialTagger(cfg.dataDir, tagger);
  return { tagger, file, seconds: (performance.now() - started) / 1000 };
}

let training: Promise<void> | null = null;

/**
 * At a server start, what is enabled and not yet cached is trained in the background when labelled data is at hand
 * (ASSAY_TRAINING_DATA, default the shared data folder): the material tagger (ASSAY_MATERIAL_TAGGER=auto, the default;
 * half a minute of one core, no model), then the heads (ASSAY_STRUCTURING_HEADS=auto with the local model; half a
 * minute on two cores). Papers imported afterwards go through them; `npm run structure` re-structures those imported
 * before. Never throws.
 */
export function trainHeadsInBackground(cfg: AssayConfig): Promise<void> | null {
  if (training || !fs.existsSync(cfg.trainingData)) return null;
  const sources = sourcesIn(cfg.trainingData);
  const tagger =
    cfg.materialTagger === 'auto' && !loadMaterialTagger(cfg.dataDir, MENTION_FEATURES_VERSION) && sources.gold.some((g) => g.task === 'material-role');
  // Heads only where they would be used: training loads the model and takes half a minute of the start's CPU.
  const heads =
    cfg.structuringHeads === 'auto' &&
    localModelEmbeds(cfg) &&
    !loadHeads(cfg.dataDir, BGE_MODEL.id) &&
    sources.gold.some((g) => g.task === 'paragraph-role' || g.task === 'synthesis-method');
  if (!tagger && !heads) return null;
  const log = (line: string) => console.log(`[assay] ${line}`);
  training = (async () => {
    if (tagger)
      await trainAndSaveMaterialTagger(cfg, sources).then(
        ({ tagger: t, seconds }) =>
          log(
            `material tagger ${t.id} trained in ${seconds.toFixed(0)} s (${materialTaggerFile(cfg.dataDir)}); new imports give materials their roles with it`,
          ),
        (error) => console.error(`[assay] material tagger not trained (${(error as Error).message}); the rules give materials their roles`),
      );
    if (heads)
      await trainAndSaveHeads(cfg, sources, log).then(
        ({ heads: h, seconds }) =>
          log(`structuring heads ${h.id} trained in ${seconds.toFixed(0)} s (${headsFile(cfg.dataDir)}); new imports are structured with them`),
        (error) => console.error(`[assay] structuring heads not trained (${(error as Error).message}); the offline rules structure papers`),
      );
  })();
  return training;
}
