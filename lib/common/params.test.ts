import { describe, expect, it } from 'vitest';
import { controlCharRefusal, idParam, MAX_PAGE, pageParam, plainText, textParam, textParams } from './params.ts';

describe('request parameters', () => {
  it('reads text without control characters, bounded', () => {
    expect(textParam('ce\u0000ria\u0007')).toBe('ceria');
    expect(textParam(['first', 'second'])).toBe('first');
    expect(textParam(undefined)).toBe('');
    expect(textParam('x'.repeat(500), 200)).toHaveLength(200);
    expect(textParam('tab\tand\nnewline')).toBe('tab\tand\nnewline');
    expect(textParams(['a\u0000', 'b'])).toEqual(['a', 'b']);
  });
  it('reads page numbers in bounds, whatever is sent', () => {
    expect(pageParam('3')).toBe(3);
    expect(pageParam('999999999999999999999')).toBe(MAX_PAGE);
    for (const bad of ['-5', '0', 'abc', '1e9', '', undefined, '\u0000']) expect(pageParam(bad)).toBe(1);
  });
  it('reads ids that can be ids, and nothing else', () => {
    expect(idParam('cmwsz0dou0000r37dls0uyqfa')).toBe('cmwsz0dou0000r37dls0uyqfa');
    for (const bad of ['\u0000', 'a/b', '', 'x'.repeat(101), "1' OR '1"]) expect(idParam(bad)).toBeNull();
  });
  it('refuses body text with control characters, saying why', () => {
    const question = plainText(2000, 'the question');
    expect(question.safeParse('What is the Tc of MgB2?').success).toBe(true);
    const bad = question.safeParse('What is\u0000 the Tc?');
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0].message).toBe('the question must not contain control characters (such as NUL)');
  });
  it('refuses a query string with a control character in a name or value, as a JSON body is refused', () => {
    expect(controlCharRefusal(new URLSearchParams('q=a%00b'))).toBe('the query parameter "q" must not contain control characters (such as NUL)');
    expect(controlCharRefusal(new URLSearchParams('ok=1&%01=x'))).toMatch(/"\?" must not contain control characters/);
    expect(controlCharRefusal(new URLSearchParams('q=tab%09and%0Anewline&condition=%E2%89%A5%201073%20K'))).toBeNull();
  });
});
