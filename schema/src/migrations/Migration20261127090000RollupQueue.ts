import { Migration } from '@mikro-orm/migrations';

/**
 * The rollups' queue (issue 29): a write's contributions to the rollups (reportRollups.ts RollupEntries), one JSON row per write, appended in the write's transaction
 * and folded into `report_rollups` in batches (services/reports/rollupQueue.ts) instead of upserted by the write
 * itself. A derived table (database.ts DERIVED_TABLES): no entity; empty once folded.
 */
export class Migration20261127090000RollupQueue extends Migration {
  async up(): Promise<void> {
    const knex = this.getKnex();
    this.addSql(
      knex.schema
        .createTable('report_rollup_queue', (t) => {
          t.bigIncrements('id');
          t.text('deltas').notNullable();
        })
        .toQuery(),
    );
  }

  async down(): Promise<void> {
    this.addSql('drop table if exists report_rollup_queue');
  }
}
