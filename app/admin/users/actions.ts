'use server';

import { revalidatePath } from 'next/cache';
import { headers } from 'next/headers';
import { z } from 'zod';
import { formInput } from '@/lib/common/contract';
import { AppError, actionError } from '@/lib/common/errors';
import { allowedViewer } from '@/app/allowed-viewer';
import { getAuth, ROLES } from '@/lib/services/access';
import type { RoleResult } from '@/components/role-form';

const NAME_BOTH = 'name an account and a role (reader, expert or admin)';
const roleForm = z.object({
  userId: z.string({ error: NAME_BOTH }).regex(/^[\w-]{1,100}$/, NAME_BOTH),
  role: z.enum(ROLES, { error: NAME_BOTH }),
  email: z
    .string()
    .default('')
    .transform((s) => s.slice(0, 300)),
});

/**
 * Gives an account another role (admin only; through better-auth's admin plugin, which checks it again) and says
 * what it saved, so the form can confirm it.
 */
export async function setRoleAction(_previous: RoleResult | null, form: FormData): Promise<RoleResult> {
  const viewer = await allowedViewer('users');
  try {
    const h = await headers();
    const { userId, role, email } = formInput(roleForm, form);
    if (userId === viewer.user?.id)
      throw new AppError('bad-request', 'you cannot change your own role (so an instance never loses its last admin by accident)');
    await (await getAuth()).api.setRole({ headers: h, body: { userId, role } });
    revalidatePath('/admin/users');
    return { ok: true, role, message: `Saved: ${email || 'the account'} is now ${/^[aeiou]/.test(role) ? 'an' : 'a'} ${role}.` };
  } catch (error) {
    return actionError(error, 'set role');
  }
}
