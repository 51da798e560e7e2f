import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import * as tfl from '@tensorflow/tfjs-layers';
import { HEAD_LABELS, type HeadInputs, type HeadTask, type HeadWeights } from './head.ts';

/**
 * Fits a head with TensorFlow.js (its layers API on the pure-JavaScript CPU backend): one dense softmax layer, L2 on
 * the kernel, Adam, cross-entropy weighted so every class counts alike whatever its share of the rows. A well-kept
 * learner with the optimiser, regulariser and loss already tested; the native tfjs-node backend is not needed at
 * these sizes (a few hundred rows × 395 features train in about a second).
 */
export interface TrainingRow {
  features: number[];
  label: string;
}

export interface TrainOptions {
  l2?: number;
  epochs?: number;
  seed?: number;
  batchSize?: number;
}

let backendReady: Promise<boolean> | null = null;

export async function trainHead(task: HeadTask, inputs: HeadInputs, rows: TrainingRow[], opts: TrainOptions = {}): Promise<HeadWeights> {
  // PROD: no debug checks, and no advice to install the native backend printed into the command's output.
  tf.env().set('PROD', true);
  backendReady ??= tf.setBackend('cpu');
  await backendReady;
  const labels: string[] = [...HEAD_LABELS[task]];
  const known = rows.filter((r) => labels.includes(r.label));
  if (known.length === 0) throw new Error(`no ${task} training rows carry one of its labels (${labels.join(', ')})`);
  const features = known[0].features.length;
  if (known.some((r) => r.features.length !== features)) throw new Error('training rows differ in their number of features');
  const counts = labels.map((l) => known.filter((r) => r.label === l).length);
  const present = counts.filter((c) => c > 0).length;
  // Classes weighted inversely to their share of the rows (absent classes get none).
  const classWeight = Object.fromEntries(labels.map((_, i) => [i, counts[i] ? known.length / (present * counts[i]) : 0]));
  return fitModel();

  async function fitModel(): Promise<HeadWeights> {
    // Deterministic: the same rows give the same weights (the kernel's initialiser and the shuffle are seeded).
    const seed = opts.seed ?? 7;
    const model = tfl.sequential();
    model.add(
      tfl.layers.dense({
        units: labels.length,
        inputShape: [features],
        activation: 'softmax',
        kernelInitializer: tfl.initializers.glorotUniform({ seed }),
        kernelRegularizer: tfl.regularizers.l2({ l2: opts.l2 ?? 0.01 }),
      }),
    );
    model.compile({ optimizer: tf.train.adam(0.01), loss: 'sparseCategoricalCrossentropy' });
    const order = seededOrder(known.length, seed);
    const x = tf.tensor2d(order.map((i) => known[i].features));
    const y = tf.tensor1d(
      order.map((i) => labels.indexOf(known[i].label)),
      'float32',
    );
    try {
      await model.fit(x, y, { epochs: opts.epochs ?? 150, batchSize: opts.batchSize ?? 32, verbose: 0, shuffle: false, classWeight });
      const [kernel, bias] = model.getWeights();
      return { task, inputs, labels, kernel: Array.from(await kernel.data()), bias: Array.from(await bias.data()), features };
    } finally {
      tf.dispose([x, y]);
      model.dispose();
    }
  }
}

/** A fixed permutation of 0..n-1 (the rows' order does not depend on how they were read). */
function seededOrder(n: number, seed: number): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  let s = seed >>> 0 || 1;
  for (let i = n - 1; i > 0; i--) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    const j = s % (i + 1);
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}
