import Link from 'next/link';

/** Shown instead of a control the viewer's role does not allow, saying what would. */
export function NeedsRole({ needs, what, signedIn }: { needs: string; what: string; signedIn: boolean }) {
  return (
    <p className="rounded border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900" data-testid="needs-role">
      {what} needs an {needs} account.{' '}
      {signedIn ? (
        'Ask an admin to change your role on the Users page.'
      ) : (
        <>
          <Link href="/sign-in" className="underline">
            Sign in
          </Link>{' '}
          (the first account created on a new instance becomes its admin).
        </>
      )}
    </p>
  );
}
