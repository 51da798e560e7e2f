import type { Metadata } from 'next';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { AccountMenu } from '@/components/account-menu';
import { ImportBanner } from '@/components/import-banner';
import { Providers } from '@/components/providers';
import { SignInForm } from '@/components/sign-in-form';
import { may } from '@/lib/services/access';
import { currentViewer } from '@/app/current-viewer';
import { NAVIGATION } from '@/app/navigation';
import { config } from '@/lib/config';
import './globals.css';

export const metadata: Metadata = {
  // Absolute links for the social image in shared previews.
  metadataBase: new URL(config().publicUrl),
  title: 'Assay — materials-science literature',
  description: 'Evidence-grounded question answering over the materials-science literature',
  icons: { icon: '/icon.svg' },
  openGraph: {
    title: 'Assay',
    description: 'Answers from the materials-science literature, each sentence traced to its evidence',
    images: [{ url: '/social.png', width: 1200, height: 630, alt: 'Assay' }],
  },
};

/** Who is looking; a database that cannot be opened leaves the header signed out (the page says what is wrong). */
async function layoutViewer() {
  try {
    return await currentViewer();
  } catch {
    return { user: null, role: config().anonymous === 'reader' ? ('reader' as const) : null };
  }
}

export default async function RootLayout({ children }: { children: ReactNode }) {
  const viewer = await layoutViewer();
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">
        <header className="border-b border-slate-200 bg-white">
          <nav className="mx-auto flex max-w-6xl items-center gap-6 px-6 py-3" aria-label="Main">
            <Link href="/" className="text-lg font-semibold tracking-tight text-teal-800">
              Assay
            </Link>
            {NAVIGATION.filter((link) => !link.shownTo || may(viewer, link.shownTo)).map((link) => (
              <Link key={link.href} href={link.href} className="text-sm text-slate-700 hover:text-teal-800">
                {link.label}
              </Link>
            ))}
            <AccountMenu user={viewer.user} />
          </nav>
        </header>
        <Providers>
          <ImportBanner />
          {/* With ASSAY_ANONYMOUS=none a visitor who is not signed in sees only the sign-in form, whatever the page. */}
          <main className="mx-auto max-w-6xl px-6 py-6">{viewer.role ? children : <SignInForm />}</main>
        </Providers>
      </body>
    </html>
  );
}
