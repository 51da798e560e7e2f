'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { sameOriginPath } from '@/lib/common/same-origin-path';
import { authClient } from './auth-client';

/**
 * Sign in, or create an account (the first account on an instance becomes admin; later ones are readers until an
 * admin gives them another role). On success the page reloads with the new session.
 */
export function SignInForm({ initialMode = 'sign-in', next = '/' }: { initialMode?: 'sign-in' | 'sign-up'; next?: string }) {
  const router = useRouter();
  const [mode, setMode] = useState(initialMode);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(form: FormData) {
    setBusy(true);
    setError(null);
    const email = String(form.get('email') ?? '').trim();
    const password = String(form.get('password') ?? '');
    const result =
      mode === 'sign-in'
        ? await authClient.signIn.email({ email, password })
        : await authClient.signUp.email({ email, password, name: String(form.get('name') ?? '').trim() || email.split('@')[0] });
    setBusy(false);
    if (result.error) {
      setError(result.error.message ?? 'that did not work; try again');
      return;
    }
    router.push(sameOriginPath(next)); // checked again here: the prop is the page's, but the push is what navigates
    router.refresh();
  }
  return (
    <form
      action={submit}
      className="mx-auto max-w-sm space-y-3 rounded border border-slate-200 bg-white p-6"
      aria-label={mode === 'sign-in' ? 'Sign in' : 'Create account'}
    >
      <h1 className="text-xl font-semibold">{mode === 'sign-in' ? 'Sign in' : 'Create an account'}</h1>
      {mode === 'sign-up' && (
        <label className="block text-sm">
          Name
          <input name="name" autoComplete="name" className="mt-1 w-full rounded border border-slate-300 px-2 py-1" />
        </label>
      )}
      <label className="block text-sm">
        Email
        <input name="email" type="email" required autoComplete="email" className="mt-1 w-full rounded border border-slate-300 px-2 py-1" />
      </label>
      <label className="block text-sm">
        Password
        <input
          name="password"
          type="password"
          required
          minLength={8}
          autoComplete={mode === 'sign-in' ? 'current-password' : 'new-password'}
          className="mt-1 w-full rounded border border-slate-300 px-2 py-1"
        />
      </label>
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      <button type="submit" disabled={busy} className="w-full rounded bg-teal-700 px-3 py-1.5 text-sm font-medium text-white disabled:opacity-50">
        {busy ? 'Please wait…' : mode === 'sign-in' ? 'Sign in' : 'Create account'}
      </button>
      <p className="text-xs text-slate-600">
        {mode === 'sign-in' ? 'No account yet? ' : 'Have an account? '}
        <button type="button" className="text-teal-800 underline" onClick={() => setMode(mode === 'sign-in' ? 'sign-up' : 'sign-in')}>
          {mode === 'sign-in' ? 'Create one' : 'Sign in'}
        </button>
        {mode === 'sign-up' && ' The first account on a new instance becomes its admin.'}
      </p>
    </form>
  );
}
