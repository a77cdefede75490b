import { Migration } from '@mikro-orm/migrations';

/**
 * Views: `ticket_views` (a saved filter plus a scope, personal or shared), and the indexes a team
 * view's pages walk: one range per status of (team_id, status, id), (team_id, status, priority, id) and
 * (team_id, status, updated_at, id), and a team's unassigned tickets per status, (team_id, assignee_id, status, id).
 * The counts need no index: they are sums over the counters the triage triggers keep (ticket_counts, keyed by
 * assignee and team, with its team_id index), or counts over these ranges for a search or a requester.
 */
export class Migration20261126200000TicketViews extends Migration {
  async up(): Promise<void> {
    const knex = this.getKnex();
    const builder = knex.schema
      .createTable('ticket_views', (t) => {
        t.increments('id').primary();
        t.string('name', 50).notNullable();
        t.integer('owner_id').unsigned().notNullable().references('id').inTable('users').onUpdate('cascade').onDelete('cascade');
        t.string('scope', 16).notNullable();
        t.integer('team_id').unsigned().nullable().references('id').inTable('teams').onUpdate('cascade').onDelete('cascade');
        t.boolean('shared').notNullable().defaultTo(knex.raw('false'));
        t.text('filter').notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable();
        t.timestamp('updated_at', { useTz: true }).notNullable();
        t.index(['owner_id'], 'ticket_views_owner_id_index');
        t.index(['team_id'], 'ticket_views_team_id_index');
      })
      .alterTable('tickets', (t) => {
        t.index(['team_id', 'status', 'id'], 'tickets_team_status_id_index');
        t.index(['team_id', 'status', 'priority', 'id'], 'tickets_team_status_priority_id_index');
        t.index(['team_id', 'status', 'updated_at', 'id'], 'tickets_team_status_updated_at_id_index');
        t.index(['team_id', 'assignee_id', 'status', 'id'], 'tickets_team_assignee_status_id_index');
      });
    for (const statement of builder.toSQL()) this.addSql(statement.sql);
  }

  async down(): Promise<void> {
    const builder = this.getKnex()
      .schema.alterTable('tickets', (t) => {
        t.dropIndex([], 'tickets_team_status_id_index');
        t.dropIndex([], 'tickets_team_status_priority_id_index');
        t.dropIndex([], 'tickets_team_status_updated_at_id_index');
        t.dropIndex([], 'tickets_team_assignee_status_id_index');
      })
      .dropTable('ticket_views');
    for (const statement of builder.toSQL()) this.addSql(statement.sql);
  }
}
