import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ACCESS, may } from '@/lib/services/access';
import { NAVIGATION } from './navigation';

describe('the main navigation', () => {
  it('links only to pages that exist, each once, each shown to a role that may open it', () => {
    const page = (href: string) => path.join(import.meta.dirname, href, 'page.tsx');
    expect(NAVIGATION.filter((l) => !fs.existsSync(page(l.href))).map((l) => l.href)).toEqual([]);
    expect(new Set(NAVIGATION.map((l) => l.href)).size).toBe(NAVIGATION.length);
    for (const l of NAVIGATION) if (l.shownTo) expect(Object.keys(ACCESS)).toContain(l.shownTo);
  });

  it('shows a reader the screens every reader has and an admin every screen', () => {
    const shown = (role: 'reader' | 'expert' | 'admin') => NAVIGATION.filter((l) => !l.shownTo || may({ user: null, role }, l.shownTo)).map((l) => l.label);
    expect(shown('reader')).not.toContain('Grading');
    expect(shown('reader')).not.toContain('Users');
    expect(shown('expert')).toContain('Grading');
    expect(shown('admin')).toEqual(NAVIGATION.map((l) => l.label));
    // An anonymous visitor does not see the evaluation runs (signed-in accounts only, by default).
    const anonymous = NAVIGATION.filter((l) => !l.shownTo || may({ user: null, role: 'reader', denied: ['evaluations'] }, l.shownTo)).map((l) => l.label);
    expect(anonymous).not.toContain('Evaluation');
    expect(shown('reader')).toContain('Evaluation');
  });
});
