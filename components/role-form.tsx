'use client';

import { useActionState } from 'react';

/** What saving a role says: the role saved and a sentence to show, or why not. */
export type RoleResult = { ok: true; role: string; message: string } | { ok: false; error: string };

/**
 * One account's role: after "Set role" the drop-down shows the role saved and the form says what was saved (or
 * why not) next to it, so an admin never wonders whether the change took.
 */
export function RoleForm({
  userId,
  email,
  role,
  roles,
  setRoleAction,
}: {
  userId: string;
  email: string;
  role: string;
  roles: readonly string[];
  setRoleAction: (previous: RoleResult | null, form: FormData) => Promise<RoleResult>;
}) {
  const [state, action, pending] = useActionState(setRoleAction, null);
  const saved = state?.ok ? state.role : role;
  return (
    <form action={action} className="flex flex-wrap items-center gap-2">
      <input type="hidden" name="userId" value={userId} />
      <input type="hidden" name="email" value={email} />
      {/* Uncontrolled, drawn anew with the saved role: React resets a form to its defaults after its action. */}
      <select key={saved} name="role" defaultValue={saved} aria-label={`Role of ${email}`} className="rounded border border-slate-300 px-1 py-0.5">
        {roles.map((r) => (
          <option key={r}>{r}</option>
        ))}
      </select>
      <button type="submit" disabled={pending} className="rounded border border-slate-300 px-2 py-0.5 hover:bg-slate-50 disabled:opacity-50">
        {pending ? 'Saving…' : 'Set role'}
      </button>
      {state && (
        <span role="status" data-testid="role-result" className={`text-xs ${state.ok ? 'text-emerald-800' : 'text-red-800'}`}>
          {state.ok ? state.message : state.error}
        </span>
      )}
    </form>
  );
}
