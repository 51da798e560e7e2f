import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaClient } from './generated/client.ts';
import type { Database } from './database.ts';

/** A PostgreSQL server (DATABASE_URL) through node-postgres. */
export async function openPostgresDatabase(url: string): Promise<Database> {
  const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max: 8 }) });
  return {
    kind: 'postgres',
    location: redactUrl(url),
    prisma,
    migrationAdapterFactory: () =>
      new PrismaPg({ connectionString: url, max: 2 }) as unknown as SqlMigrationAwareDriverAdapterFactory,
    close: () => prisma.$disconnect(),
  };
}

export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgresql://(unparseable URL)';
  }
}
