'use server';

import { revalidatePath } from 'next/cache';
import { headers } from 'next/headers';
import { getAuth } from '@/lib/services/access';
import { isRole } from '@/lib/services/access';
import { requireAccess } from '@/lib/services/access';
import { AppError, actionError } from '@/lib/common/errors';
import { idParam } from '@/lib/common/params';
import type { RoleResult } from '@/components/role-form';

/**
 * Gives an account another role (admin only; through better-auth's admin plugin, which checks it again) and says
 * what it saved, so the form can confirm it.
 */
export async function setRoleAction(_previous: RoleResult | null, form: FormData): Promise<RoleResult> {
  try {
    const h = await headers();
    const viewer = await requireAccess(h, 'users');
    const userId = idParam(String(form.get('userId') ?? ''));
    const role = String(form.get('role') ?? '');
    const email = String(form.get('email') ?? '').slice(0, 300);
    if (!userId || !isRole(role)) throw new AppError('bad-request', 'name an account and a role (reader, expert or admin)');
    if (userId === viewer.user?.id)
      throw new AppError('bad-request', 'you cannot change your own role (so an instance never loses its last admin by accident)');
    await (await getAuth()).api.setRole({ headers: h, body: { userId, role } });
    revalidatePath('/admin/users');
    return { ok: true, role, message: `Saved: ${email || 'the account'} is now ${/^[aeiou]/.test(role) ? 'an' : 'a'} ${role}.` };
  } catch (error) {
    return actionError(error, 'set role');
  }
}
