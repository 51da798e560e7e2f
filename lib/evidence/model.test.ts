import { describe, expect, it } from 'vitest';
import { PAPER_PAGE_SIZE, paragraphHref } from './model.ts';

describe('paragraphHref', () => {
  it('opens the paper page that shows the paragraph, scrolled to it', () => {
    expect(paragraphHref('abc', 0)).toBe('/papers/abc#p0');
    expect(paragraphHref('abc', PAPER_PAGE_SIZE - 1)).toBe(`/papers/abc#p${PAPER_PAGE_SIZE - 1}`);
    expect(paragraphHref('abc', PAPER_PAGE_SIZE)).toBe(`/papers/abc?page=2#p${PAPER_PAGE_SIZE}`);
    expect(paragraphHref('abc', 449)).toBe('/papers/abc?page=3#p449');
    expect(paragraphHref('abc', null)).toBe('/papers/abc');
  });
});
