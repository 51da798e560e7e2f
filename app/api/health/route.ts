import { getDatabase } from '@/lib/db/client';
import { countPapersAndParagraphs } from '@/lib/db/papers';
import { countRecords } from '@/lib/db/records';

export const dynamic = 'force-dynamic';

export async function GET() {
  try {
    const db = await getDatabase();
    const counts = await countPapersAndParagraphs(db.prisma);
    return Response.json({ ok: true, database: db.kind, ...counts, records: await countRecords(db.prisma) });
  } catch (error) {
    return Response.json({ ok: false, error: (error as Error).message }, { status: 503 });
  }
}
