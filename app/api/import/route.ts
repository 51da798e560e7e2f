import { guarded } from '@/lib/services/access';
import { importUpload } from '@/lib/services/imports';

export const dynamic = 'force-dynamic';

/**
 * POST multipart/form-data with one or more `files`: stores them as they stream in (cut at the upload limit whatever
 * the headers say), starts an import run, returns its id.
 */
export const POST = guarded(
  'import',
  async (request: Request) => {
    const runId = await importUpload({
      contentType: request.headers.get('content-type'),
      declaredBytes: Number(request.headers.get('content-length') ?? 0),
      body: request.body,
    });
    return Response.json({ runId }, { status: 202 });
  },
  'import upload',
);
