import type { z } from 'zod';
import { config } from '../config.ts';
import { AppError, badRequest } from './errors.ts';

/**
 * A JSON request body: a 415 when the request does not say it is JSON (so a cross-site `text/plain` form post
 * can never be read as one), a 413 past `maxBytes` (ASSAY_MAX_JSON_KB), a 400 when it is not valid JSON.
 *
 * The server's request gate already refuses a declared length over the limit before a byte is read
 * (lib/common/request-gate.mjs); this counts the bytes as they stream too, for whatever reaches a route another way
 * (a development server, a test calling the handler), and stops reading at the limit instead of buffering it all.
 */
export async function readJson(request: Request, maxBytes = config().requests.maxJsonBytes): Promise<unknown> {
  if (!/^application\/json\b/i.test(request.headers.get('content-type') ?? ''))
    throw new AppError('unsupported-media-type', 'send the request body as JSON (Content-Type: application/json)');
  const tooLarge = () => new AppError('payload-too-large', `the request body is larger than this server accepts (${Math.round(maxBytes / 1024)} KB)`);
  if (Number(request.headers.get('content-length') ?? 0) > maxBytes) throw tooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        throw tooLarge();
      }
      chunks.push(value);
    }
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new AppError('bad-request', 'the request body is not valid JSON');
  }
}

/**
 * A JSON request body checked against a schema: the parsed value, or a 400 listing what is wrong. The ask and
 * evaluation schemas word their messages for the person typing, so those are shown alone; `fieldPaths` prefixes
 * each with the field it concerns, for bodies a screen builds itself (a grade's marks), where zod's own wording
 * would not say which field.
 */
export async function readJsonAs<S extends z.ZodType>(request: Request, schema: S, options: { fieldPaths?: boolean } = {}): Promise<z.infer<S>> {
  const parsed = schema.safeParse(await readJson(request));
  if (!parsed.success) {
    throw badRequest(parsed.error.issues.map((i) => (options.fieldPaths && i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; '));
  }
  return parsed.data;
}
