import type { EmbeddingCacheStore } from '../embedding/embedder.ts';
import type { Database } from './database.ts';

/** Owns all queries on Embedding: provider vectors cached by model id + text hash. */
export function embeddingCacheStore(db: Database): EmbeddingCacheStore {
  return {
    async get(modelId, hashes) {
      const out = new Map<string, Float32Array>();
      for (let i = 0; i < hashes.length; i += 5000) {
        const keys = hashes.slice(i, i + 5000).map((h) => `${modelId}:${h}`);
        const rows = await db.prisma.embedding.findMany({ where: { key: { in: keys } }, select: { key: true, vector: true } });
        for (const r of rows) {
          const bytes = Uint8Array.from(r.vector);
          out.set(r.key.slice(modelId.length + 1), new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4));
        }
      }
      return out;
    },
    async has(modelId, hashes) {
      const out = new Set<string>();
      for (let i = 0; i < hashes.length; i += 5000) {
        const keys = hashes.slice(i, i + 5000).map((h) => `${modelId}:${h}`);
        const rows = await db.prisma.embedding.findMany({ where: { key: { in: keys } }, select: { key: true } });
        for (const r of rows) out.add(r.key.slice(modelId.length + 1));
      }
      return out;
    },
    async put(modelId, rows) {
      if (rows.length === 0) return;
      const params: unknown[] = [];
      const values = rows.map((r, i) => {
        params.push(`${modelId}:${r.hash}`, modelId, r.vector.length, Buffer.from(r.vector.buffer, r.vector.byteOffset, r.vector.byteLength));
        const b = i * 4;
        return `($${b + 1}, $${b + 2}, $${b + 3}, $${b + 4})`;
      });
      await db.bulkExecute(`INSERT INTO "Embedding" ("key", "modelId", "dims", "vector") VALUES ${values.join(', ')} ON CONFLICT ("key") DO NOTHING`, params);
    },
  };
}
