/**
 * POST /api/import, multipart/form-data with one or more `files` → 202 {runId}. The body is a stream, read by the
 * upload reader as it arrives (lib/ingest/uploads.ts checks its type, size and parts), so it has no JSON schema here.
 */
export interface ImportUploadResponse {
  runId: string;
}
