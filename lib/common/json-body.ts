import type { z } from 'zod';
import { AppError, badRequest } from './errors.ts';

/**
 * A JSON request body: a 415 when the request does not say it is JSON (so a cross-site `text/plain` form post
 * can never be read as one), a 400 when it is not valid JSON.
 */
export async function readJson(request: Request): Promise<unknown> {
  if (!/^application\/json\b/i.test(request.headers.get('content-type') ?? ''))
    throw new AppError('unsupported-media-type', 'send the request body as JSON (Content-Type: application/json)');
  try {
    return await request.json();
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
