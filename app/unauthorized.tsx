import Link from 'next/link';

/** What a request refused for want of an account shows (401; app/allowed-viewer.ts). */
export default function Unauthorized() {
  return (
    <div role="alert" className="space-y-2 rounded-lg border border-amber-200 bg-amber-50 p-6 text-amber-900">
      <h1 className="text-lg font-semibold">Sign in to do this</h1>
      <p className="text-sm">
        <Link href="/sign-in" className="underline">
          Sign in
        </Link>{' '}
        with an account whose role allows it.
      </p>
    </div>
  );
}
