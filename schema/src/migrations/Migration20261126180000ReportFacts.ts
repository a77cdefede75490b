import { Migration } from '@mikro-orm/migrations';
import { rebuildReportFacts } from './reportFold.js';

/**
 * Reports: the report facts, derived from the event record (`ticket_events`) in the same transaction as
 * each event (the fold: ./reportFold.ts; services/reports/facts.ts, called from the change log's appendTicketEvents), so a write is in every
 * report as soon as it commits, with no nightly job and no search cluster.
 *
 * - `report_facts`: one row per thing a report counts or measures: a ticket CREATED, SOLVED (entering SOLVED) or
 *   REOPENED (leaving SOLVED), the first agent RESPONSE of a cycle (creation or reopen to the first public agent
 *   reply), and BACKLOG deltas (+1 when a ticket becomes unsolved under some attributes, -1 when it stops being
 *   so). Each row carries the attributes the ticket had when it happened (team, assignee, priority, type,
 *   status: the attribution rule) and, for SOLVED and RESPONSE, the duration in milliseconds. `at` is epoch
 *   milliseconds on both databases (buckets are computed in the report's time zone by the service). A SOLVED
 *   row's `final` is cleared when the ticket is reopened (the resolution time counts the final solve only).
 * - `report_state`: per ticket, what the fold of its events needs to go on from the last one (its attributes now,
 *   creation time, the start of a cycle still awaiting its first response, whether it was ever solved).
 *
 * Both are derived tables (database.ts DERIVED_TABLES): no entity, rebuilt from ticket_events by
 * ./reportFold.ts rebuildReportFacts, which this migration runs for the events already recorded.
 */
export class Migration20261126180000ReportFacts extends Migration {
  async up(): Promise<void> {
    const knex = this.getKnex();
    const builder = knex.schema
      .createTable('report_facts', (t) => {
        t.increments('id').primary();
        t.integer('ticket_id').notNullable();
        t.string('kind', 16).notNullable();
        t.bigInteger('at').notNullable();
        t.integer('delta').notNullable().defaultTo(0);
        t.bigInteger('value_ms').nullable();
        t.boolean('first_solve').notNullable().defaultTo(false);
        t.boolean('final').notNullable().defaultTo(false);
        t.integer('team_id').nullable();
        t.integer('assignee_id').nullable();
        t.string('priority', 16).notNullable();
        t.string('type', 16).notNullable();
        t.string('status', 16).notNullable();
        // Covering: a report's range scan reads every column it needs from the index, in time order, without a
        // lookup of each row (facts of one ticket are written at different times, so rowid order is not time order).
        t.index(
          ['at', 'kind', 'ticket_id', 'delta', 'value_ms', 'first_solve', 'final', 'team_id', 'assignee_id', 'priority', 'type', 'status'],
          'report_facts_at_covering_index',
        );
        t.index(['ticket_id'], 'report_facts_ticket_id_index');
      })
      .createTable('report_state', (t) => {
        t.integer('ticket_id').primary();
        t.bigInteger('created_at').notNullable();
        t.integer('team_id').nullable();
        t.integer('assignee_id').nullable();
        t.string('priority', 16).notNullable();
        t.string('type', 16).notNullable();
        t.string('status', 16).notNullable();
        t.bigInteger('awaiting_since').nullable();
        t.boolean('solved_once').notNullable().defaultTo(false);
      });
    // Run now (not queued): the backfill below writes into these tables in the migration's transaction.
    for (const statement of builder.toSQL()) await this.execute(statement.sql);
    await rebuildReportFacts((sql, params) => this.execute(sql, params));
  }

  async down(): Promise<void> {
    this.addSql('drop table if exists report_state');
    this.addSql('drop table if exists report_facts');
  }
}
