import type { Json } from '@/lib/common/contract';
import type { PublicImportStatus } from '@/lib/services/imports';

/** GET /api/import/status (no input) → the imports under way as anybody may see them (stage and counts, no file names). */
export type ImportStatusResponse = Json<PublicImportStatus>;
