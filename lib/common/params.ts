import { z } from 'zod';
import { CONTROL_CHARS, controlCharRefusal, hasControlChars } from './control-chars.mjs';

/**
 * Reading what a request names, in one place: query parameters of pages and routes, ids in paths, free text in
 * request bodies. Control characters (NUL above all, which PostgreSQL refuses in text) never get through; page
 * numbers are bounded; anything unreadable falls back to the default rather than failing the page.
 */

export type SearchParams = Record<string, string | string[] | undefined>;

/**
 * Control characters (the same test for a query string, which the server's request gate refuses with 400 before any
 * page or route reads it, and for text in a JSON body, `plainText`): see control-chars.mjs.
 */
export { controlCharRefusal, hasControlChars };

/** A query parameter as text: its first value, control characters removed, at most `max` characters. */
export function textParam(v: string | string[] | undefined, max = 200): string {
  const first = (Array.isArray(v) ? v[0] : v) ?? '';
  return first.replace(CONTROL_CHARS, '').slice(0, max);
}

/** Every value of a repeated query parameter, each as `textParam` reads it (at most `most` of them). */
export function textParams(v: string | string[] | undefined, max = 200, most = 20): string[] {
  return (Array.isArray(v) ? v : v === undefined ? [] : [v]).slice(0, most).map((x) => textParam(x, max));
}

/** Pages a listing may be paged to at most: a page number beyond it is read as the last page. */
export const MAX_PAGE = 10_000;

/** A 1-based page number: 1 for anything unreadable, at most MAX_PAGE. */
export function pageParam(v: string | string[] | undefined): number {
  const text = textParam(v, 20);
  if (!/^\d+$/.test(text)) return 1;
  return Math.min(Math.max(Number(text), 1), MAX_PAGE);
}

/** An id named in a path (cuid, uuid, slug): null when it cannot be one, so the route answers 404, never 500. */
export function idParam(id: string): string | null {
  return /^[\w-]{1,100}$/.test(id) ? id : null;
}

/** Free text in a request body: at most `max` characters and no control characters (a clear 400 otherwise). */
export const plainText = (max: number, what = 'text') =>
  z
    .string()
    .max(max, `${what} is limited to ${max.toLocaleString('en')} characters`)
    .refine((s) => !hasControlChars(s), `${what} must not contain control characters (such as NUL)`);
