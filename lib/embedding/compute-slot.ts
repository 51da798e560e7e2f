import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { processRunning } from '../common/process-running.ts';

/**
 * One model computing at a time on a machine's cores. The model's session takes every core (onnxruntime's threads,
 * onnx-bge.ts); two processes of one machine embedding at once (the server and an `npm run worker` beside it, or two
 * workers) each got half the cores and lost more to the switching: measured with two workers on 2 cores, 33
 * paragraphs/s against 49 for one. So an embedding shard's batch first takes this machine's slot, a lock file in the
 * system's temporary folder (`slotPath`) naming the process that holds it: processes of one machine take turns batch
 * by batch, and workers on other machines add their own cores. A slot left by a killed process is taken over.
 */
const defaultSlotPath = () => path.join(os.tmpdir(), 'assay-model-compute.lock');

// Turns within this process (its own calls never contend through the file).
let inProcess: Promise<void> = Promise.resolve();

export async function withComputeSlot<T>(run: () => Promise<T>, opts: { slotPath?: string; signal?: AbortSignal; pollMs?: number } = {}): Promise<T> {
  const slot = opts.slotPath ?? defaultSlotPath();
  const before = inProcess;
  let done!: () => void;
  inProcess = new Promise<void>((resolve) => (done = resolve));
  try {
    await before;
    await acquire(slot, opts.signal, opts.pollMs ?? 20);
    try {
      return await run();
    } finally {
      release(slot);
    }
  } finally {
    done();
  }
}

async function acquire(slot: string, signal: AbortSignal | undefined, pollMs: number): Promise<void> {
  for (;;) {
    signal?.throwIfAborted();
    try {
      fs.writeFileSync(slot, String(process.pid), { flag: 'wx' });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = Number.parseInt(readOr(slot, ''), 10);
    // A slot whose process is gone (killed mid-batch) is taken over, and so is one naming this process (an earlier
    // process's pid come round again: this process's own turns are kept by `inProcess`); one being written (no pid yet) is waited for.
    if (Number.isFinite(owner) && owner > 0 && (owner === process.pid || !processRunning(owner))) {
      fs.rmSync(slot, { force: true });
      continue;
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

function release(slot: string): void {
  if (readOr(slot, '').trim() === String(process.pid)) fs.rmSync(slot, { force: true });
}

function readOr(file: string, fallback: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return fallback;
  }
}
