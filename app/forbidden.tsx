import Link from 'next/link';

/** What a request refused for its role shows (403; app/allowed-viewer.ts): the account is signed in, its role too low. */
export default function Forbidden() {
  return (
    <div role="alert" className="space-y-2 rounded-lg border border-amber-200 bg-amber-50 p-6 text-amber-900">
      <h1 className="text-lg font-semibold">Not allowed for your role</h1>
      <p className="text-sm">This needs another role than your account has. Ask an admin to change it on the Users page.</p>
      <Link href="/" className="text-sm underline">
        Back to Assay
      </Link>
    </div>
  );
}
