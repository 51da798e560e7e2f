import { type Deadline, overBudget } from '../common/deadline.ts';
import type { Database } from './database.ts';
import type { Prisma } from './generated/client.ts';

/** What a read within a deadline may use: the client, or (on PostgreSQL) the transaction that bounds its statements. */
export type ReadClient = Prisma.TransactionClient;

/**
 * Runs `read` (a search's queries) so that it ends by `deadline` with the over-budget error. On PostgreSQL its
 * statements run in a transaction of their own whose `statement_timeout` is the time left, so the server stops them
 * there; PGlite keeps no timers (it ignores statement_timeout), so the caller stops waiting at the deadline while the
 * statement runs out on the database's thread. Searches are kept cheap by what they accept (see `webSearchText`);
 * this is what ends one that is not.
 */
export async function withinTime<T>(db: Database, deadline: Deadline, read: (client: ReadClient) => Promise<T>): Promise<T> {
  deadline.check('database read');
  if (!Number.isFinite(deadline.at)) return read(db.prisma);
  if (db.kind === 'pglite') return deadline.race(read(db.prisma));
  try {
    const left = Math.max(1, Math.floor(deadline.remainingMs()));
    return await db.prisma.$transaction(
      async (tx) => {
        // A whole number of milliseconds, at least 1 (0 would mean no limit).
        await tx.$executeRawUnsafe(`SET LOCAL statement_timeout = ${left}`);
        return read(tx);
      },
      // Prisma's own limits on an interactive transaction (5 s by default) must not end it first.
      { maxWait: left, timeout: left + 1000 },
    );
  } catch (error) {
    // PostgreSQL's "canceling statement due to statement timeout" (SQLSTATE 57014), however the driver wraps it.
    if (/statement timeout|57014/.test(String((error as Error)?.message ?? error))) throw overBudget(deadline, 'database read');
    throw error;
  }
}
