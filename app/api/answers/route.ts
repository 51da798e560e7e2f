import { handleErrors } from '@/lib/common/errors';
import { getDatabase } from '@/lib/db/client';
import { listAnswers } from '@/lib/db/answers';

export const dynamic = 'force-dynamic';

/** GET ?q= → the latest stored answers (newest first), those whose question contains q when given. */
export const GET = handleErrors(async (request: Request) => {
  const q = new URL(request.url).searchParams.get('q')?.slice(0, 200) || undefined;
  return Response.json({ answers: await listAnswers(await getDatabase(), { query: q, take: 50 }) });
}, 'answers');
