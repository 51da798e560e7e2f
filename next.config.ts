import type { NextConfig } from 'next';

/**
 * Security headers on every response. The CSP fits a Next.js app without per-request nonces: Next's inline
 * bootstrap scripts and React's style attributes need 'unsafe-inline' (and the dev server 'unsafe-eval'); nothing
 * is loaded from another origin, no page may frame Assay, no plugin runs, forms post only here.
 */
const csp = [
  "default-src 'self'",
  `script-src 'self' 'unsafe-inline'${process.env.NODE_ENV === 'development' ? " 'unsafe-eval'" : ''}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const securityHeaders = [
  { key: 'Content-Security-Policy', value: csp },
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'Referrer-Policy', value: 'same-origin' },
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'Cross-Origin-Opener-Policy', value: 'same-origin' },
];

const nextConfig: NextConfig = {
  // Loaded from node_modules at run time rather than bundled: WebAssembly engines (PGlite, Prisma's schema
  // engine), pdf.js, the PostgreSQL driver, usearch's native build, esbuild (which bundles the retrieval worker)
  // and the spelling dictionary locate their own files relative to their package.
  serverExternalPackages: [
    '@electric-sql/pglite',
    '@electric-sql/pglite-pgvector',
    'pglite-prisma-adapter',
    '@prisma/driver-adapter-utils',
    '@prisma/adapter-pg',
    'pg',
    'unpdf',
    'usearch',
    'esbuild',
    'nspell',
    'dictionary-en',
  ],
  poweredByHeader: false,
  // authInterrupts: forbidden() and unauthorized(), so that a server action refused for its role answers 403/401
  // (app/action-access.ts) instead of an error's 500.
  experimental: { preloadEntriesOnStart: false, authInterrupts: true },
  headers: async () => [{ source: '/:path*', headers: securityHeaders }],
};

export default nextConfig;
