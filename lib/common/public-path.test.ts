import { describe, expect, it } from 'vitest';
import { publicPath, publicText } from './public-path.ts';

const roots = [
  { label: 'data', dir: '/srv/assay/.assay' },
  { label: 'corpus', dir: '/home/alice/corpus' },
];

describe('public paths', () => {
  it('shows a path under a known folder relative to it, and only the base name of any other', () => {
    expect(publicPath('/srv/assay/.assay/uploads/b1/001-x.pdf', roots)).toBe('data/uploads/b1/001-x.pdf');
    expect(publicPath('/home/alice/corpus', roots)).toBe('corpus');
    expect(publicPath('/home/alice/corpus/sub/papers.jsonl.gz', roots)).toBe('corpus/sub/papers.jsonl.gz');
    expect(publicPath('/etc/secret/file.txt', roots)).toBe('file.txt');
    // A sibling whose name starts the same is not inside.
    expect(publicPath('/home/alice/corpus-old/a.xml', roots)).toBe('a.xml');
    // Already a display name (an upload's original name): as it is.
    expect(publicPath('my paper.pdf', roots)).toBe('my paper.pdf');
  });
  it('rewrites the paths inside a message', () => {
    expect(publicText('could not read /home/alice/corpus/a.xml: EACCES, open /var/lib/x/b.pdf', roots)).toBe('could not read corpus/a.xml: EACCES, open b.pdf');
    expect(publicText('a ratio of 1/2 and 3 mW/cm^2 stay', roots)).toBe('a ratio of 1/2 and 3 mW/cm^2 stay');
  });
});
