import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { safeName, saveUploads, UploadError } from './uploads.ts';
import { tempDir } from '../testing/fixtures.ts';

const file = (name: string, content: string) => {
  const blob = new Blob([content]);
  return { name, size: blob.size, stream: () => blob.stream() };
};

describe('saveUploads', () => {
  it('stores every file under the data folder with a safe name and remembers the original name', async () => {
    const dir = tempDir();
    const { paths, names } = await saveUploads(dir, [file('../../etc/passwd', 'x'), file('a paper.pdf', 'pdf')], 1000);
    for (const p of paths) expect(p.startsWith(path.join(dir, 'uploads'))).toBe(true);
    expect(paths.map((p) => path.basename(p))).toEqual(['001-passwd', '002-a paper.pdf']);
    expect(names.get(paths[0])).toBe('../../etc/passwd');
    expect(fs.readFileSync(paths[1], 'utf8')).toBe('pdf');
  });
  it('refuses uploads over the limit and empty uploads', async () => {
    await expect(saveUploads(tempDir(), [file('big.txt', 'x'.repeat(50))], 10)).rejects.toMatchObject({ status: 413 });
    await expect(saveUploads(tempDir(), [], 10)).rejects.toBeInstanceOf(UploadError);
  });
  it('reduces names to a harmless basename', () => {
    expect(safeName('..\\..\\x.xml')).toBe('x.xml');
    expect(safeName('.env')).toBe('env');
    expect(safeName('a<b>|c.txt')).toBe('a_b_c.txt');
  });
});
