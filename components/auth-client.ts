'use client';

import { adminClient } from 'better-auth/client/plugins';
import { createAuthClient } from 'better-auth/react';

/** better-auth's browser client (same origin: /api/auth). */
export const authClient = createAuthClient({ plugins: [adminClient()] });
