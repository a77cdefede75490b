import { Migration } from '@mikro-orm/migrations';
import { PostgreSqlPlatform } from '@mikro-orm/postgresql';
import { rebuildReportRollups } from './reportRollups.js';

/**
 * Reports at scale: `report_rollups`, the report facts summed per 15-minute, hour and UTC-day cell, keyed
 * by the ticket's team and assignee now (the access rule's columns, 0 for none) and one breakdown dimension with its
 * value (./reportRollups.ts says every column), kept in the change log's write transaction next to the facts
 * (services/reports/facts.ts). Counts and sums are integers; each duration's histogram is a JSON object from bin to
 * count (text on SQLite, jsonb on PostgreSQL). A derived table (database.ts DERIVED_TABLES): no entity, rebuilt
 * from report_facts by rebuildReportRollups, which this migration runs for the facts already kept.
 */
export class Migration20261126210000ReportRollups extends Migration {
  async up(): Promise<void> {
    const postgres = this.driver.getPlatform() instanceof PostgreSqlPlatform;
    const knex = this.getKnex();
    const builder = knex.schema.createTable('report_rollups', (t) => {
      t.string('grain', 1).notNullable();
      t.bigInteger('cell').notNullable();
      t.integer('team_id').notNullable();
      t.integer('assignee_id').notNullable();
      t.string('dim', 1).notNullable();
      t.string('value', 64).notNullable();
      for (const c of ['created', 'solved', 'reopened', 'backlog', 'fr_n', 'fs_n', 'rs_n']) t.integer(c).notNullable().defaultTo(0);
      for (const m of ['fr', 'fs', 'rs']) {
        t.bigInteger(`${m}_sum`).notNullable().defaultTo(0);
        if (postgres) t.jsonb(`${m}_bins`).notNullable().defaultTo('{}');
        else t.text(`${m}_bins`).notNullable().defaultTo('{}');
      }
      // The report reads one dimension's cells of one grain in a time range (or a list of cells); the upsert's key.
      t.primary(['grain', 'dim', 'cell', 'team_id', 'assignee_id', 'value']);
    });
    // Run now (not queued): the fold below writes into the table in the migration's transaction.
    for (const statement of builder.toSQL()) await this.execute(statement.sql);
    await rebuildReportRollups((sql, params) => this.execute(sql, params), postgres);
  }

  async down(): Promise<void> {
    this.addSql('drop table if exists report_rollups');
  }
}
