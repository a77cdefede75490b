import { Migration } from '@mikro-orm/migrations';

/**
 * Auto-assignment: a team setting, off by default, that gives each new unassigned ticket of the team to
 * its least-loaded member online (services/autoAssign.ts). One column; the loads are read from the counters the
 * triage triggers keep (ticket_counts, keyed by assignee and team since 20261126140000), so no index is added.
 */
export class Migration20261126170000TeamAutoAssign extends Migration {
  async up(): Promise<void> {
    const knex = this.getKnex();
    const builder = knex.schema.alterTable('teams', (t) => {
      t.boolean('auto_assign').notNullable().defaultTo(knex.raw('false'));
    });
    for (const statement of builder.toSQL()) this.addSql(statement.sql);
  }

  async down(): Promise<void> {
    const knex = this.getKnex();
    const builder = knex.schema.alterTable('teams', (t) => {
      t.dropColumn('auto_assign');
    });
    for (const statement of builder.toSQL()) this.addSql(statement.sql);
  }
}
