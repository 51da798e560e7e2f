import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type { PrismaClient } from './generated/client.ts';

/** The relational store behind Assay: one Prisma client plus what migrations need, whatever the engine. */
export interface Database {
  kind: 'pglite' | 'postgres';
  /** Human-readable location for logs and the UI (data folder or URL without password). */
  location: string;
  prisma: PrismaClient;
  /** A fresh driver-adapter factory for the Prisma schema engine (migrations, drift checks). */
  migrationAdapterFactory(): SqlMigrationAwareDriverAdapterFactory;
  close(): Promise<void>;
}
