import { NeedsRole } from '@/components/needs-role';
import { ROLE_DESCRIPTIONS, ROLES } from '@/lib/services/access';
import { currentViewer } from '@/app/current-viewer';
import { may } from '@/lib/services/access';
import { accounts } from '@/lib/services/users';
import { RoleForm } from '@/components/role-form';
import { setRoleAction } from './actions';

export const dynamic = 'force-dynamic';

export default async function UsersPage() {
  const viewer = await currentViewer();
  if (!may(viewer, 'users')) return <NeedsRole needs="admin" what="Managing accounts" signedIn={!!viewer.user} />;
  const users = await accounts();
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">Users</h1>
      <ul className="text-sm text-slate-600">
        {ROLES.map((r) => (
          <li key={r}>
            <b>{r}</b>: {ROLE_DESCRIPTIONS[r]}
          </li>
        ))}
      </ul>
      <table className="w-full border-collapse text-sm" aria-label="Accounts">
        <thead>
          <tr className="border-b border-slate-300 text-left text-slate-600">
            <th className="py-2">Name</th>
            <th>Email</th>
            <th>Since</th>
            <th>Role</th>
          </tr>
        </thead>
        <tbody>
          {users.map((u) => (
            <tr key={u.id} className="border-b border-slate-100">
              <td className="py-2">{u.name}</td>
              <td>{u.email}</td>
              <td>{u.createdAt.toISOString().slice(0, 10)}</td>
              <td>
                {u.id === viewer.user?.id ? (
                  <span>{u.role} (you)</span>
                ) : (
                  <RoleForm userId={u.id} email={u.email} role={u.role ?? 'reader'} roles={ROLES} setRoleAction={setRoleAction} />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
