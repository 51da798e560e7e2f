/**
 * Where a page may send the browser after it (the sign-in page's `next`): a path on this origin, or `fallback`.
 *
 * The value is resolved the way a browser resolves it (the WHATWG URL parser: backslashes read as slashes, tabs and
 * newlines dropped, `//host` and `/\host` naming another host), against a placeholder origin; anything that leaves
 * that origin, or is not a path to begin with (`javascript:`, `https://…`), gives `fallback`. What comes back is the
 * parsed path, query and fragment, already normalised, so that nothing downstream (the router, the browser) can read
 * it as another host again: `/%5Cexample.com` stays a path of this origin, and `/\example.com` or `/%09/example.com`
 * once decoded by the page's query parsing, are refused.
 */
const PLACEHOLDER = 'http://assay.invalid';

export function sameOriginPath(value: string | null | undefined, fallback = '/'): string {
  if (!value || value.length > 2_000) return fallback;
  // Control characters anywhere (a browser drops some and keeps others): refused rather than guessed at.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find them
  if (/[\u0000-\u001f\u007f]/.test(value)) return fallback;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return fallback;
  let url: URL;
  try {
    url = new URL(value, PLACEHOLDER);
  } catch {
    return fallback;
  }
  if (url.origin !== PLACEHOLDER) return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // The normalised path itself must read as a path of this origin again (`/.//x` normalises to `//x`).
  return path.startsWith('//') || path.startsWith('/\\') ? fallback : path;
}
