import { SignInForm } from '@/components/sign-in-form';
import { textParam } from '@/lib/common/params';
import { sameOriginPath } from '@/lib/common/same-origin-path';

export const dynamic = 'force-dynamic';

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string; mode?: string }> }) {
  const sp = await searchParams;
  const next = textParam(sp.next, 300);
  return <SignInForm initialMode={sp.mode === 'sign-up' ? 'sign-up' : 'sign-in'} next={sameOriginPath(next)} />;
}
