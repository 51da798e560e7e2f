/** Methods that change nothing: any origin may send them. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether a state-changing request was sent by a browser from another site (a cross-site form post, a script on
 * another origin): its `Sec-Fetch-Site` says so, or its `Origin` names another host. Requests with neither header
 * (the CLI, curl, scripts on the server) are not: no browser made them on someone else's page. Leaf module.
 */
export function isCrossSite(request: Request): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  const site = request.headers.get('sec-fetch-site');
  if (site && site !== 'same-origin' && site !== 'none') return true;
  const origin = request.headers.get('origin');
  if (origin === null) return false;
  const host = request.headers.get('x-forwarded-host') ?? request.headers.get('host');
  try {
    return !host || new URL(origin).host !== host;
  } catch {
    return true; // "null" or garbage: not this site
  }
}
