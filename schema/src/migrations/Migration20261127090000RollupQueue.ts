import { Migration } from '@mikro-orm/migrations';

/**
 * The reports' queue: what a write contributes to the reports, one JSON row per write (today the entries
 * that can change a report: services/reports/facts.ts queueReportEvents), appended in the write's transaction and
 * folded into the facts and `report_rollups` in batches (services/reports/rollupQueue.ts) instead of kept by the
 * write itself. A derived table (database.ts DERIVED_TABLES): no entity; empty once folded.
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
