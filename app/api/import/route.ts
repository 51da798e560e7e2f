import { guarded } from '@/lib/auth/guard';
import { AppError } from '@/lib/common/errors';
import { config } from '@/lib/config';
import { getDatabase } from '@/lib/db/client';
import { startBackgroundIngest } from '@/lib/jobs/background';
import { receiveUploads } from '@/lib/ingest/uploads';

export const dynamic = 'force-dynamic';

/**
 * POST multipart/form-data with one or more `files`: stores them as they stream in (cut at the upload limit whatever
 * the headers say), starts an import run, returns its id.
 */
export const POST = guarded(
  'import',
  async (request: Request) => {
    const cfg = config();
    const declared = Number(request.headers.get('content-length') ?? 0);
    if (declared > cfg.maxUploadBytes + 1024 * 1024)
      throw new AppError('payload-too-large', `the upload is larger than the ${Math.round(cfg.maxUploadBytes / 1048576)} MiB limit (ASSAY_MAX_UPLOAD_MB)`);
    const saved = await receiveUploads({ contentType: request.headers.get('content-type'), body: request.body }, cfg.dataDir, cfg.maxUploadBytes);
    const db = await getDatabase();
    const runId = await startBackgroundIngest(db, cfg, saved.paths, 'upload', {
      displayNames: saved.names,
      shownInputs: [...saved.names.values()],
      maxItemBytes: cfg.maxLineBytes,
    });
    return Response.json({ runId }, { status: 202 });
  },
  'import upload',
);
