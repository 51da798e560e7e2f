import type { Database } from './database.ts';
import { Prisma } from './generated/client.ts';

/** Owns all queries on ExtractionCache. */

export interface ExtractionCacheStore {
  get(key: string): Promise<unknown | null>;
  putOk(key: string, task: string, modelId: string, output: unknown): Promise<void>;
  putError(key: string, task: string, modelId: string, error: string): Promise<void>;
}

export function extractionCache(db: Database): ExtractionCacheStore {
  return {
    async get(key) {
      const row = await db.prisma.extractionCache.findUnique({ where: { key } });
      return row && row.status === 'ok' ? row.output : null;
    },
    async putOk(key, task, modelId, output) {
      const data = { status: 'ok', output: output as Prisma.InputJsonValue, error: null };
      await db.prisma.extractionCache.upsert({ where: { key }, create: { key, task, modelId, ...data }, update: { ...data, attempts: { increment: 1 } } });
    },
    async putError(key, task, modelId, error) {
      const data = { status: 'error', output: Prisma.JsonNull, error: error.slice(0, 4000) };
      await db.prisma.extractionCache.upsert({ where: { key }, create: { key, task, modelId, ...data }, update: { ...data, attempts: { increment: 1 } } });
    },
  };
}

/** A process-local cache (evaluation runs, tests). */
export function memoryCache(): ExtractionCacheStore & { errors: Map<string, string> } {
  const ok = new Map<string, unknown>();
  const errors = new Map<string, string>();
  return {
    errors,
    async get(key) {
      return ok.get(key) ?? null;
    },
    async putOk(key, _t, _m, output) {
      ok.set(key, output);
      errors.delete(key);
    },
    async putError(key, _t, _m, error) {
      errors.set(key, error);
    },
  };
}

export async function extractionErrors(db: Database, take = 50) {
  return db.prisma.extractionCache.findMany({ where: { status: 'error' }, orderBy: { updatedAt: 'desc' }, take });
}
