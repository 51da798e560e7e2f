import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { bindMigrationAwareSqlAdapterFactory, type SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type { MigrationList, SchemaEngine } from '@prisma/schema-engine-wasm';
import type { Database } from './database.ts';

/**
 * Migrations without the Prisma CLI: the CLI downloads a native schema engine, which cannot work offline, so we
 * drive Prisma's own WebAssembly schema engine through a driver adapter. The checked-in SQL files under
 * prisma/migrations are the source of truth; schema.prisma must agree with them (see `checkDrift`).
 */

export const prismaDir = () => path.resolve(/* turbopackIgnore: true */ process.cwd(), process.env.ASSAY_PRISMA_DIR ?? 'prisma');
const migrationsDir = () => path.join(prismaDir(), 'migrations');
const filters = { externalTables: [], externalEnums: [] };

type Bg = typeof import('@prisma/schema-engine-wasm/schema_engine_bg');
let bgPromise: Promise<Bg> | undefined;

/** The package's entry imports the .wasm as an ES module (a bundler feature); instantiate it by hand instead. */
function loadWasm(): Promise<Bg> {
  bgPromise ??= (async () => {
    const bg = await import('@prisma/schema-engine-wasm/schema_engine_bg');
    const wasmPath = schemaEngineWasmPath();
    const { instance } = await WebAssembly.instantiate(fs.readFileSync(wasmPath), {
      './schema_engine_bg.js': bg as unknown as WebAssembly.ModuleImports,
    });
    (bg as unknown as { __wbg_set_wasm(x: unknown): void }).__wbg_set_wasm(instance.exports);
    (instance.exports as unknown as { __wbindgen_start(): void }).__wbindgen_start();
    return bg;
  })();
  return bgPromise;
}

/** The .wasm beside the package's JS; when bundled (Next.js server), resolution falls back on node_modules. */
function schemaEngineWasmPath(): string {
  try {
    const require = createRequire(import.meta.url);
    const p = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg').replace(/\.js$/, '.wasm');
    if (fs.existsSync(p)) return p;
  } catch {
    /* bundled: fall through */
  }
  return path.join(/* turbopackIgnore: true */ process.cwd(), 'node_modules', '@prisma', 'schema-engine-wasm', 'schema_engine_bg.wasm');
}

function schemaText(): string {
  return fs.readFileSync(path.join(prismaDir(), 'schema.prisma'), 'utf8');
}

async function openEngine(factory: SqlMigrationAwareDriverAdapterFactory): Promise<SchemaEngine> {
  const bg = await loadWasm();
  const bound = bindMigrationAwareSqlAdapterFactory(factory);
  return bg.SchemaEngine.new({ datamodels: [['schema.prisma', schemaText()]] }, () => {}, bound);
}

export function readMigrationsList(dir = migrationsDir()): MigrationList {
  const entries = fs.existsSync(dir)
    ? fs
        .readdirSync(dir, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
        .sort()
    : [];
  const lockPath = path.join(dir, 'migration_lock.toml');
  return {
    baseDir: dir,
    lockfile: { path: 'migration_lock.toml', content: fs.existsSync(lockPath) ? fs.readFileSync(lockPath, 'utf8') : null },
    shadowDbInitScript: '',
    migrationDirectories: entries.map((name) => {
      const file = path.join(dir, name, 'migration.sql');
      return {
        path: name,
        migrationFile: {
          path: 'migration.sql',
          content: fs.existsSync(file) ? { tag: 'ok' as const, value: fs.readFileSync(file, 'utf8') } : { tag: 'error' as const, value: `missing ${file}` },
        },
      };
    }),
  };
}

/** Names of migrations recorded as finished, or null when the migrations table does not exist yet. */
async function appliedMigrationNames(db: Database): Promise<Set<string> | null> {
  const exists = await db.prisma.$queryRawUnsafe<{ t: string | null }[]>(`SELECT to_regclass('_prisma_migrations')::text AS t`);
  if (!exists[0]?.t) return null;
  const rows = await db.prisma.$queryRawUnsafe<{ migration_name: string }[]>(
    `SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
  );
  return new Set(rows.map((r) => r.migration_name));
}

/** Applies checked-in migrations not yet applied. Cheap when up to date (no schema engine is loaded). */
export async function applyPendingMigrations(db: Database): Promise<string[]> {
  const list = readMigrationsList();
  if (list.migrationDirectories.length === 0) throw new Error(`no migrations found in ${list.baseDir}`);
  const applied = await appliedMigrationNames(db);
  if (applied && list.migrationDirectories.every((m) => applied.has(m.path))) return [];
  const engine = await openEngine(db.migrationAdapterFactory());
  try {
    const out = await engine.applyMigrations({ migrationsList: list, filters });
    return out.appliedMigrationNames;
  } finally {
    engine.free();
  }
}

/**
 * Compares the schema the migrations produce with schema.prisma, on a throw-away in-memory PGlite (its shadow
 * database is another in-memory PGlite). Returns the SQL that would close the gap; empty when in sync.
 */
export async function diffMigrationsToSchema(): Promise<{ drift: boolean; script: string }> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { PrismaPGlite } = await import('pglite-prisma-adapter');
  const pg = new PGlite();
  const engine = await openEngine(new PrismaPGlite(pg) as unknown as SqlMigrationAwareDriverAdapterFactory);
  try {
    const result = await engine.diff({
      from: { tag: 'migrations', ...readMigrationsList() },
      to: { tag: 'schemaDatamodel', files: [{ path: 'schema.prisma', content: schemaText() }] },
      script: true,
      exitCode: true,
      filters,
    });
    const script = (result.stdout ?? '').trim();
    const drift = result.exitCode === 2 && !/^-- This is an empty migration\.?$/.test(script);
    return { drift, script };
  } finally {
    engine.free();
    await pg.close();
  }
}

/** Writes the SQL that brings the migrations up to schema.prisma as a new migration folder. */
export async function createMigration(name: string): Promise<string | null> {
  const { drift, script } = await diffMigrationsToSchema();
  if (!drift) return null;
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  const dir = path.join(migrationsDir(), `${stamp}_${name.replace(/[^a-z0-9_]+/gi, '_').toLowerCase()}`);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'migration.sql'), `${script}\n`);
  const lock = path.join(migrationsDir(), 'migration_lock.toml');
  if (!fs.existsSync(lock)) fs.writeFileSync(lock, 'provider = "postgresql"\n');
  return dir;
}
