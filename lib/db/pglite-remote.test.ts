import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './database.ts';
import { Prisma } from './generated/client.ts';
import { applyPendingMigrations } from './migrations.ts';
import { openPgliteDatabase } from './pglite.ts';

/**
 * The embedded database of a data folder runs on its own thread (pglite-worker.mjs) behind a driver adapter that
 * forwards every call. These tests use it as the app does, through Prisma, and check what must cross the thread
 * intact: results, transactions, the driver's typed errors; and that SQL no longer holds up the calling thread.
 */
describe('PGlite on its own thread', () => {
  let dir: string;
  let db: Database;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assay-pglite-thread-'));
    db = await openPgliteDatabase(dir);
    await applyPendingMigrations(db);
  });
  afterAll(async () => {
    await db?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reads back what it writes, with JSON, arrays and dates intact', async () => {
    const paper = await db.prisma.paper.create({
      data: {
        title: 'Thread test',
        authors: ['A. One', 'B. Two'],
        source: 'Text',
        format: 'text',
        contentHash: 'h1',
        fingerprint: 'f1',
        meta: { pages: [1, 2] },
      },
    });
    const back = await db.prisma.paper.findUniqueOrThrow({ where: { id: paper.id } });
    expect(back.authors).toEqual(['A. One', 'B. Two']);
    expect(back.meta).toEqual({ pages: [1, 2] });
    expect(back.createdAt).toBeInstanceOf(Date);
    expect(await db.prisma.paper.count({ where: { title: 'Thread test' } })).toBe(1);
  });

  it('commits an interactive transaction and rolls back a failed one whole', async () => {
    await db.prisma.$transaction(async (tx) => {
      await tx.paper.create({ data: { title: 'Committed', source: 'Text', format: 'text', contentHash: 'h2', fingerprint: 'f2' } });
    });
    await expect(
      db.prisma.$transaction(async (tx) => {
        await tx.paper.create({ data: { title: 'Rolled back', source: 'Text', format: 'text', contentHash: 'h3', fingerprint: 'f3' } });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await db.prisma.paper.count({ where: { title: 'Committed' } })).toBe(1);
    expect(await db.prisma.paper.count({ where: { title: 'Rolled back' } })).toBe(0);
  });

  it("turns the driver's constraint errors into Prisma's known errors", async () => {
    await db.prisma.paper.create({ data: { doi: '10.1/dup', source: 'Text', format: 'text', contentHash: 'h4', fingerprint: 'f4' } });
    const error = await db.prisma.paper
      .create({ data: { doi: '10.1/dup', source: 'Text', format: 'text', contentHash: 'h5', fingerprint: 'f5' } })
      .catch((e) => e);
    expect(error).toBeInstanceOf(Prisma.PrismaClientKnownRequestError);
    expect((error as Prisma.PrismaClientKnownRequestError).code).toBe('P2002');
  });

  it('runs bulk statements straight through the driver', async () => {
    const n = await db.bulkExecute(`UPDATE "Paper" SET "year" = $1 WHERE "title" = ANY($2::text[])`, [2001, ['Committed', 'Thread test']]);
    expect(n).toBe(2);
  });

  it('keeps the calling thread free while a long statement runs', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const t0 = performance.now();
    await db.prisma.$queryRawUnsafe('SELECT count(*) FROM generate_series(1, 3000000)');
    const ms = performance.now() - t0;
    clearInterval(timer);
    // On the calling thread the statement would have held the timer back for its whole duration (one tick at most).
    expect(ms).toBeGreaterThan(100);
    expect(ticks).toBeGreaterThan(ms / 10 / 3);
  });
});
