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
  /**
   * One parameterised statement straight through the driver, returning the affected row count. For bulk
   * writes with multi-megabyte parameters: Prisma's debug module keeps the arguments of its last 100 calls,
   * which for such batches pins hundreds of megabytes.
   */
  bulkExecute(sql: string, params: unknown[]): Promise<number>;
  close(): Promise<void>;
}
