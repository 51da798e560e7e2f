'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { authClient } from './auth-client';

/** The header's account corner: who is signed in and with which role, or a link to sign in. */
export function AccountMenu({ user }: { user: { name: string; email: string; role: string } | null }) {
  const router = useRouter();
  if (!user)
    return (
      <Link href="/sign-in" className="ml-auto text-sm text-teal-800 hover:underline">
        Sign in
      </Link>
    );
  return (
    <span className="ml-auto flex items-center gap-3 text-sm text-slate-700" data-testid="account">
      <span title={user.email}>
        {user.name} <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-600">{user.role}</span>
      </span>
      <button
        type="button"
        className="text-teal-800 hover:underline"
        onClick={async () => {
          await authClient.signOut();
          router.push('/');
          router.refresh();
        }}
      >
        Sign out
      </button>
    </span>
  );
}
