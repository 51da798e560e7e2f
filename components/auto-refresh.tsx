'use client';

import { useRouter } from 'next/navigation';
import { useEffect } from 'react';

/** Refreshes the server-rendered page every few seconds while something it shows is still under way. */
export function AutoRefresh({ seconds = 2 }: { seconds?: number }) {
  const router = useRouter();
  useEffect(() => {
    const t = setInterval(() => router.refresh(), seconds * 1000);
    return () => clearInterval(t);
  }, [router, seconds]);
  return null;
}
