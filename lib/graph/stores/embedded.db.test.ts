import { afterAll, beforeAll } from 'vitest';
import type { Database } from '../../db/database.ts';
import { openTestDatabase } from '../../../scripts/test-support/database.ts';
import { describeGraphStoreContract } from '../store.contract.ts';
import { createEmbeddedGraphStore } from './embedded.ts';

let db: Database;
beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(async () => {
  await db?.close();
});

describeGraphStoreContract('embedded (relational tables + graphology)', async () => {
  await db.prisma.graphTuple.deleteMany();
  await db.prisma.graphEntity.deleteMany();
  return createEmbeddedGraphStore(db);
});
