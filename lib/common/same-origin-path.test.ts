import { describe, expect, it } from 'vitest';
import { sameOriginPath } from './same-origin-path.ts';

/** What the browser would open after `router.push(path)` on this origin. */
const opened = (path: string) => new URL(path, 'https://assay.example.org/sign-in');

describe('sameOriginPath', () => {
  it('keeps a path of this origin, with its query and fragment', () => {
    expect(sameOriginPath('/answers/abc?x=1#part')).toBe('/answers/abc?x=1#part');
    expect(sameOriginPath('/grading/c1/grade?item=3')).toBe('/grading/c1/grade?item=3');
    expect(sameOriginPath('/a/../b')).toBe('/b');
  });

  it('refuses every form that leaves the origin, as the page receives it (query already decoded once)', () => {
    const hostile = [
      '//example.com',
      '/\\example.com', // the issue's /%5Cexample.com, decoded by the page's query parsing
      '/\\/example.com',
      '/\t/example.com', // /%09/example.com
      '/\n/example.com',
      '/\r\n/example.com',
      '\\\\example.com',
      'https://example.com/',
      'http:example.com',
      'javascript:alert(1)',
      ' /example.com',
      'example.com',
      '/.//example.com',
      '/\u0000/example.com',
      '',
    ];
    for (const h of hostile) {
      const path = sameOriginPath(h, '/');
      expect(path, JSON.stringify(h)).toBe('/');
    }
  });

  it('a path still encoded once more stays on this origin, whatever it says', () => {
    for (const raw of ['/%5Cexample.com', '/%5C/example.com', '/%09/example.com', '/%2F%2Fexample.com', '/%252F%252Fexample.com']) {
      const path = sameOriginPath(raw);
      expect(opened(path).host, raw).toBe('assay.example.org');
      // and so does the path read back and decoded once more (a router that decodes before it pushes)
      expect(opened(sameOriginPath(decodeURIComponent(path))).host, raw).toBe('assay.example.org');
    }
  });

  it('gives the fallback for a missing or oversized value', () => {
    expect(sameOriginPath(undefined, '/library')).toBe('/library');
    expect(sameOriginPath(null)).toBe('/');
    expect(sameOriginPath(`/${'a'.repeat(3_000)}`)).toBe('/');
  });
});
