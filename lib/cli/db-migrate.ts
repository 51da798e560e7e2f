import { createMigration, diffMigrationsToSchema, applyPendingMigrations } from '../db/migrations.ts';
import { openDatabase } from '../db/client.ts';
import { config } from '../config.ts';

/**
 * npm run db:migrate                 apply pending migrations to the configured database
 * npm run db:drift                   exit 1 when prisma/migrations and schema.prisma disagree
 * npm run db:new-migration -- name   write a migration from the current schema.prisma
 */
async function main() {
  const args = process.argv.slice(2);
  if (args[0] === '--check-drift') {
    const { drift, script } = await diffMigrationsToSchema();
    if (drift) {
      console.error(`schema.prisma and prisma/migrations disagree. Missing migration SQL:\n${script}`);
      console.error('\nRun `npm run db:new-migration -- <name>` and commit the result.');
      process.exit(1);
    }
    console.log('migrations match schema.prisma');
    return;
  }
  if (args[0] === '--create') {
    const name = args[1];
    if (!name) throw new Error('usage: npm run db:new-migration -- <name>');
    const dir = await createMigration(name);
    console.log(dir ? `wrote ${dir}/migration.sql` : 'schema.prisma already matches the migrations; nothing written');
    return;
  }
  const db = await openDatabase(config());
  try {
    const applied = await applyPendingMigrations(db);
    console.log(applied.length ? `applied: ${applied.join(', ')}` : `up to date (${db.location})`);
  } finally {
    await db.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
