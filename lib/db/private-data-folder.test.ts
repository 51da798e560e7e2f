import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../config.ts';
import { openMigratedDatabase } from './client.ts';

/** Every file and folder under `dir`, with its mode bits. */
function modes(dir: string): { file: string; mode: number }[] {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).map((e) => {
    const file = path.join(e.parentPath, e.name);
    return { file, mode: fs.statSync(file).mode & 0o777 };
  });
}

describe('the data folder is private', () => {
  it('the embedded database writes nothing that another account may read or write, even under a umask of 0', async () => {
    const previous = process.umask(0);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-private-'));
    fs.chmodSync(dir, 0o777); // as an older version, or a careless mkdir, left it
    try {
      const db = await openMigratedDatabase(readConfig({ ASSAY_DATA_DIR: dir }));
      await db.prisma.paper.count();
      await db.close();
      expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
      const all = modes(dir);
      expect(all.length).toBeGreaterThan(100); // PGlite's files
      expect(all.filter((m) => m.mode & 0o077)).toEqual([]);
    } finally {
      process.umask(previous);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
