import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import { fuzzCases, readFuzzCase } from '../test-support/fuzz-cases.ts';

export const fuzzUsage = 'npm run bench -- fuzz [--rounds n]';

/**
 * The readers' fuzz cases (the fuzz test's seeded corruptions of every format), timed: per format the number of
 * cases, the median and the slowest with its mutation, and any unexpected exception.
 */
export async function benchFuzz(args: string[]) {
  const i = args.indexOf('--rounds');
  const rounds = i >= 0 ? Number(args[i + 1]) : 3;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-bench-fuzz-'));
  const byFormat = new Map<string, { ms: number; label: string }[]>();
  const failures: string[] = [];
  const t0 = performance.now();
  try {
    for await (const c of fuzzCases(rounds)) {
      const t = performance.now();
      const { unexpected } = await readFuzzCase(c, dir);
      const ms = performance.now() - t;
      if (unexpected) failures.push(`${c.label}: ${unexpected}`);
      const list = byFormat.get(c.format) ?? [];
      list.push({ ms, label: c.label });
      byFormat.set(c.format, list);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const cases = [...byFormat.values()].reduce((n, l) => n + l.length, 0);
  console.log(`${cases} corrupted inputs, ${rounds} rounds, read in ${((performance.now() - t0) / 1000).toFixed(1)} s (${os.cpus().length} cores)`);
  console.log('format          cases  median ms  slowest ms  slowest case');
  for (const [format, list] of byFormat) {
    const sorted = list.map((x) => x.ms).sort((a, b) => a - b);
    const worst = list.reduce((a, b) => (b.ms > a.ms ? b : a));
    console.log(
      `${format.padEnd(15)} ${String(list.length).padStart(5)}  ${sorted[Math.floor(sorted.length / 2)].toFixed(0).padStart(9)}  ${worst.ms.toFixed(0).padStart(10)}  ${worst.label}`,
    );
  }
  console.log(failures.length ? `unexpected exceptions:\n${failures.join('\n')}` : 'no unexpected exception');
}
