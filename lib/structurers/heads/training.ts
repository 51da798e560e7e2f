import fs from 'node:fs';
import type { AssayConfig } from '../../config.ts';
import { BGE_MODEL } from '../../embedding/bge-model.ts';
import { modelSession } from '../../embedding/model-session.ts';
import { fitStructuringHeads } from './fit.ts';
import { localModelEmbeds } from '../select.ts';
import { headsFile, loadHeads, saveHeads, type StructuringHeads } from './store.ts';
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

let training: Promise<void> | null = null;

/**
 * At a server start with ASSAY_STRUCTURING_HEADS=auto: when no heads are cached but labelled data is at hand (the
 * shared data folder) and the local model embeds passages, they are trained in the background (half a minute on two
 * cores); papers imported afterwards go through them, and `npm run structure` re-structures those imported before.
 * Never throws.
 */
export function trainHeadsInBackground(cfg: AssayConfig): Promise<void> | null {
  // Only where they would be used: training loads the model and takes half a minute of the start's CPU.
  if (training || cfg.structuringHeads !== 'auto' || !localModelEmbeds(cfg)) return null;
  if (loadHeads(cfg.dataDir, BGE_MODEL.id) || !fs.existsSync(cfg.trainingData)) return null;
  const sources = sourcesIn(cfg.trainingData);
  if (sources.gold.length === 0) return null;
  training = trainAndSaveHeads(cfg, sources, (line) => console.log(`[assay] ${line}`)).then(
    ({ heads, seconds }) =>
      console.log(`[assay] structuring heads ${heads.id} trained in ${seconds.toFixed(0)} s (${headsFile(cfg.dataDir)}); new imports are structured with them`),
    (error) => console.error(`[assay] structuring heads not trained (${(error as Error).message}); the offline rules structure papers`),
  );
  return training;
}
