import { AppError, errorResponse } from '@/lib/common/errors';
import { config } from '@/lib/config';
import { getDatabase } from '@/lib/db/client';
import { startBackgroundIngest } from '@/lib/jobs/background';
import { saveUploads, type UploadedFile } from '@/lib/ingest/uploads';

export const dynamic = 'force-dynamic';

/** POST multipart/form-data with one or more `files`: stores them, starts an import run, returns its id. */
export async function POST(request: Request) {
  const cfg = config();
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > cfg.maxUploadBytes + 1024 * 1024) {
    return errorResponse(
      new AppError('payload-too-large', `the upload is larger than the ${Math.round(cfg.maxUploadBytes / 1048576)} MiB limit (ASSAY_MAX_UPLOAD_MB)`),
    );
  }
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return errorResponse(new AppError('bad-request', 'expected a multipart/form-data upload with a "files" field'));
  }
  const files = form.getAll('files').filter((f): f is File => typeof f === 'object' && f !== null && 'arrayBuffer' in f);
  try {
    const saved = await saveUploads(cfg.dataDir, files as UploadedFile[], cfg.maxUploadBytes);
    const db = await getDatabase();
    const runId = await startBackgroundIngest(db, cfg, saved.paths, 'upload', {
      displayNames: saved.names,
      shownInputs: files.map((f) => f.name),
      maxItemBytes: cfg.maxLineBytes,
    });
    return Response.json({ runId }, { status: 202 });
  } catch (error) {
    return errorResponse(error, 'import upload');
  }
}
