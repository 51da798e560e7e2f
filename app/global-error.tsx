'use client';

/** When even the layout fails: a minimal page of its own (it replaces the root layout). */
export default function GlobalError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <html lang="en">
      <body style={{ fontFamily: 'system-ui, sans-serif', padding: '2rem' }}>
        <h1>Assay could not show this page</h1>
        <p>{error.digest ? `Something went wrong on the server (reference ${error.digest}).` : error.message}</p>
        <button type="button" onClick={reset}>
          Try again
        </button>
      </body>
    </html>
  );
}
