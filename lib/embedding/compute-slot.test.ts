import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../scripts/test-support/fixtures.ts';
import { withComputeSlot } from './compute-slot.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the machine’s compute slot', () => {
  it('lets one call of this process compute at a time, and frees the slot after each', async () => {
    const slotPath = path.join(tempDir('assay-slot-'), 'slot.lock');
    let inside = 0;
    let most = 0;
    const call = (ms: number) =>
      withComputeSlot(
        async () => {
          inside++;
          most = Math.max(most, inside);
          expect(fs.readFileSync(slotPath, 'utf8')).toBe(String(process.pid));
          await sleep(ms);
          inside--;
          return ms;
        },
        { slotPath },
      );
    expect(await Promise.all([call(20), call(5), call(10)])).toEqual([20, 5, 10]);
    expect(most).toBe(1);
    expect(fs.existsSync(slotPath)).toBe(false);
  });

  it('waits while another live process holds the slot, and takes over one left by a process that is gone', async () => {
    const slotPath = path.join(tempDir('assay-slot-'), 'slot.lock');
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      fs.writeFileSync(slotPath, String(other.pid));
      let ran = false;
      const waiting = withComputeSlot(async () => (ran = true), { slotPath, pollMs: 5 });
      await sleep(100);
      expect(ran).toBe(false);
      // The holder is killed without releasing: its slot is taken over.
      other.kill('SIGKILL');
      await waiting;
      expect(ran).toBe(true);
    } finally {
      other.kill('SIGKILL');
    }

    // A wait is given up when its job is stopped.
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      fs.writeFileSync(slotPath, String(holder.pid));
      const stop = new AbortController();
      const waiting = withComputeSlot(async () => 'ran', { slotPath, pollMs: 5, signal: stop.signal });
      stop.abort(new Error('the server is stopping'));
      await expect(waiting).rejects.toThrow(/stopping/);
      expect(fs.readFileSync(slotPath, 'utf8')).toBe(String(holder.pid));
    } finally {
      holder.kill('SIGKILL');
    }
  });
});
