import { AppError } from './errors.ts';

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
