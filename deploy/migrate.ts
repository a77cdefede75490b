/**
 * Migrates the database without serving: `node --import tsx deploy/migrate.ts` with DATABASE_URL (or DATA_DIR
 * for SQLite) set, e.g. as a deploy step before the gateways restart. Same code and same startup lock as a
 * gateway's start (docs/deployment.md), so it is safe while gateways run or start. No demo seed.
 */
import { resolve } from 'node:path';
import { openDatabase } from '@fulcrum/schema';

const databaseUrl = process.env.DATABASE_URL || undefined;
const orm = await openDatabase({ databaseUrl, dataDir: resolve(process.env.DATA_DIR || './data') });
try {
  const executed = await orm.getMigrator().getExecutedMigrations();
  const pending = await orm.getMigrator().getPendingMigrations();
  console.log(
    `${databaseUrl ? 'PostgreSQL' : 'SQLite'}: ${executed.length} migrations applied, latest ${executed.at(-1)?.name ?? 'none'}; ${pending.length} pending`,
  );
} finally {
  await orm.close(true);
}
