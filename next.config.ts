import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // Loaded from node_modules at run time rather than bundled: WebAssembly engines (PGlite, Prisma's schema
  // engine), pdf.js and the PostgreSQL driver locate their own files relative to their package.
  serverExternalPackages: ['@electric-sql/pglite', 'pglite-prisma-adapter', '@prisma/driver-adapter-utils', '@prisma/adapter-pg', 'pg', 'unpdf'],
  poweredByHeader: false,
};

export default nextConfig;
