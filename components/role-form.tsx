'use client';

import { useActionState, useState } from 'react';

type RoleResult = { ok: true; role: string; message: string } | { ok: false; error: string };

/**
 * One account's role: the drop-down keeps what was chosen, and after "Set role" the form says what was saved (or
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
  const [chosen, setChosen] = useState(role);
  const saved = state?.ok ? state.role : role;
  return (
    <form action={action} className="flex flex-wrap items-center gap-2">
      <input type="hidden" name="userId" value={userId} />
      <input type="hidden" name="email" value={email} />
      <select
        name="role"
        value={chosen}
        onChange={(e) => setChosen(e.target.value)}
        aria-label={`Role of ${email}`}
        className="rounded border border-slate-300 px-1 py-0.5"
      >
        {roles.map((r) => (
          <option key={r}>{r}</option>
        ))}
      </select>
      <button
        type="submit"
        disabled={pending || chosen === saved}
        className="rounded border border-slate-300 px-2 py-0.5 hover:bg-slate-50 disabled:opacity-50"
      >
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
