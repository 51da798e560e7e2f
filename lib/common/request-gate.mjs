/**
 * What the HTTP server checks of every request before Next.js sees it (scripts/serve.mjs): plain JavaScript, since
 * the server loads it before anything is compiled, and the one home of the settings it reads (lib/config.ts takes
 * them from `gateSettings` too, so a bad value stops the start there with the variable's name).
 *
 * - **Who the client is.** `x-assay-client` is the address the server believes: the socket's peer, or, only when
 *   that peer is a configured trusted proxy (ASSAY_TRUSTED_PROXIES), the nearest address of `X-Forwarded-For` that is
 *   not itself a trusted proxy. Whatever a client sends under that name is dropped first, and `X-Forwarded-For` from
 *   anyone else is never read: a header anyone can send buys no new identity (sign-in limits, fair admission).
 * - **Bounded bodies.** A request that carries a body to anything but the upload route (`/api/import`, which counts
 *   its own stream against ASSAY_MAX_UPLOAD_MB) or a server action (Next.js caps those at 1 MB) must say its length,
 *   and at most ASSAY_MAX_JSON_KB: else 411 or 413 before a byte of it is read. Node's parser holds a request to the
 *   length it declared, so nothing longer can be parsed behind it.
 * - **Control characters** (NUL above all) in a query are refused with 400 on every request, whatever its headers:
 *   as such text in a JSON body is (lib/common/params.ts).
 */
import net from 'node:net';
import { controlCharRefusal } from './control-chars.mjs';

/** The header the server sets to the client's address, and that it drops from whatever a client sends. */
export const CLIENT_HEADER = 'x-assay-client';

/**
 * The gate's settings from the environment: `trustedProxies` (addresses, `loopback` for 127.0.0.0/8 and ::1), the JSON
 * body limit in bytes. Throws an Error naming the variable on a bad value.
 */
export function gateSettings(env) {
  const trusted = (env.ASSAY_TRUSTED_PROXIES ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const t of trusted) if (t !== 'loopback' && !net.isIP(t)) throw new Error(`ASSAY_TRUSTED_PROXIES: "${t}" is not an IP address (nor "loopback")`);
  const kb = env.ASSAY_MAX_JSON_KB === undefined || env.ASSAY_MAX_JSON_KB === '' ? 256 : Number(env.ASSAY_MAX_JSON_KB);
  if (!Number.isFinite(kb) || kb < 1 || kb > 100_000) throw new Error('ASSAY_MAX_JSON_KB: must be a number of kilobytes from 1 to 100000');
  const keepAlive = env.ASSAY_KEEP_ALIVE_SECONDS === undefined || env.ASSAY_KEEP_ALIVE_SECONDS === '' ? 65 : Number(env.ASSAY_KEEP_ALIVE_SECONDS);
  if (!Number.isFinite(keepAlive) || keepAlive < 1 || keepAlive > 3600) throw new Error('ASSAY_KEEP_ALIVE_SECONDS: must be a number of seconds from 1 to 3600');
  return { trustedProxies: trusted, maxJsonBytes: Math.round(kb * 1024), keepAliveMs: Math.round(keepAlive * 1000) };
}

/** An address as one form: IPv4-mapped IPv6 (`::ffff:127.0.0.1`) as IPv4. */
function plainAddress(a) {
  const s = (a ?? '').trim();
  return s.toLowerCase().startsWith('::ffff:') && net.isIPv4(s.slice(7)) ? s.slice(7) : s;
}

function isTrusted(address, trustedProxies) {
  const a = plainAddress(address);
  return trustedProxies.some((t) => (t === 'loopback' ? a === '::1' || a.startsWith('127.') : plainAddress(t) === a));
}

/**
 * The client's address: the socket's peer, unless that peer is a trusted proxy, in which case the nearest
 * X-Forwarded-For entry (read from the right) that is not one; `unknown` when there is no peer address.
 */
export function clientAddress(peer, forwardedFor, trustedProxies) {
  const direct = plainAddress(peer) || 'unknown';
  if (!trustedProxies.length || !isTrusted(direct, trustedProxies)) return direct;
  const hops = String(forwardedFor ?? '')
    .split(',')
    .map(plainAddress)
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!net.isIP(hops[i])) return direct; // a malformed hop: what lies left of it cannot be trusted either
    if (!isTrusted(hops[i], trustedProxies)) return hops[i];
  }
  return direct;
}

/** Paths whose bodies are not JSON and are counted by their own reader. */
const OWN_BODY_LIMIT = /^\/api\/import\/?$/;

/**
 * What the gate answers instead of Next.js, or null to let the request through: `{ status, json, text }` where
 * `json` is for `/api/…` and `text` the sentence a page shows. `headers`: the request's (lower-case names).
 */
export function gateRefusal(url, headers, settings) {
  const q = url.indexOf('?');
  if (q >= 0) {
    let params;
    try {
      params = new URLSearchParams(url.slice(q + 1));
    } catch {
      params = null;
    }
    const refusal = params ? controlCharRefusal(params) : 'the query string could not be read';
    if (refusal) return { status: 400, code: 'bad-request', message: refusal };
  }
  const path = q >= 0 ? url.slice(0, q) : url;
  const declared = headers['content-length'];
  const chunked = /\bchunked\b/i.test(String(headers['transfer-encoding'] ?? ''));
  const hasBody = chunked || (declared !== undefined && declared !== '0');
  if (!hasBody || OWN_BODY_LIMIT.test(path) || headers['next-action'] !== undefined) return null;
  if (declared === undefined)
    return { status: 411, code: 'bad-request', message: 'send the request body with its length (Content-Length); bodies of unknown length are not read' };
  if (!/^\d+$/.test(String(declared)) || Number(declared) > settings.maxJsonBytes)
    return {
      status: 413,
      code: 'payload-too-large',
      message: `the request body is larger than this server accepts (${Math.round(settings.maxJsonBytes / 1024)} KB; ASSAY_MAX_JSON_KB)`,
    };
  return null;
}
