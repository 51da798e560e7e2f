import type { Contract, Json } from '@/lib/common/contract';
import type { PublicImportStatus } from '@/lib/services/imports';

/** GET /api/import/status → the imports under way as anybody may see them (stage and counts, no file names). */
export const importStatusContract = {} satisfies Contract;
export type ImportStatusResponse = Json<PublicImportStatus>;
