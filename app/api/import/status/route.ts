import { publicImportStatus } from '@/lib/services/imports';

export const dynamic = 'force-dynamic';

/**
 * GET → the imports under way as anybody may see them (stage and counts, no file names): the banner every page shows
 * while the library is being filled, including before any account exists.
 */
export async function GET() {
  try {
    return Response.json(await publicImportStatus());
  } catch (error) {
    return Response.json({ imports: [], semanticSearch: null, error: (error as Error).message }, { status: 503 });
  }
}
