import { getAuth } from '@/lib/services/access';

export const dynamic = 'force-dynamic';

/** better-auth's endpoints (sign-up, sign-in, sign-out, session, admin): it checks origins and rate limits itself. */
const handler = async (request: Request) => (await getAuth()).handler(request);
export const GET = handler;
export const POST = handler;
