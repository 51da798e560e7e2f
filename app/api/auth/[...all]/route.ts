import { getAuth, handleAuthRequest } from '@/lib/services/access';

export const dynamic = 'force-dynamic';

/**
 * better-auth's endpoints (sign-up, sign-in, sign-out, session, admin): it checks origins itself; sign-in limits per
 * account and client, and sign-up's refusals, are handleAuthRequest's.
 */
const handler = async (request: Request) => handleAuthRequest(await getAuth(), request);
export const GET = handler;
export const POST = handler;
