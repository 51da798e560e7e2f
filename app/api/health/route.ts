import { health } from '@/lib/services/health';

export const dynamic = 'force-dynamic';

export async function GET() {
  try {
    return Response.json({ ok: true, ...(await health()) });
  } catch (error) {
    return Response.json({ ok: false, error: (error as Error).message }, { status: 503 });
  }
}
