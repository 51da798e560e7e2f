'use client';

/**
 * What a page shows when rendering it failed: the message (server errors arrive as a digest only, never with
 * their details) and a way to try again, instead of a blank screen.
 */
export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div role="alert" className="space-y-3 rounded-lg border border-red-200 bg-red-50 p-6">
      <h1 className="text-lg font-semibold text-red-900">This page could not be shown</h1>
      <p className="text-sm text-red-900">
        {error.digest ? 'Something went wrong on the server; the details are in its log' : error.message}
        {error.digest ? <span className="ml-1 font-mono text-xs">(reference {error.digest})</span> : null}.
      </p>
      <button type="button" onClick={reset} className="rounded bg-red-800 px-3 py-1.5 text-sm font-medium text-white">
        Try again
      </button>
    </div>
  );
}
