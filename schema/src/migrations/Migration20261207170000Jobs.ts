import { Migration } from '@mikro-orm/migrations';

/**
 * The job table (schema/src/jobs): durable background work of any kind, claimed with a lease by one loop per
 * gateway. (kind, key) is unique, so enqueueing is idempotent; (state, due_at) is what a claim and the loop's sleep read.
 */
export class Migration20261207170000Jobs extends Migration {
  async up(): Promise<void> {
    const knex = this.getKnex();
    const builder = knex.schema.createTable('jobs', (t) => {
      t.increments('id').primary();
      t.string('kind', 64).notNullable();
      t.string('key', 255).notNullable();
      t.timestamp('due_at', { useTz: true }).notNullable();
      t.text('payload').notNullable();
      t.string('state', 16).notNullable();
      t.integer('attempts').notNullable();
      t.timestamp('lease_until', { useTz: true }).nullable();
      t.text('last_error').nullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.unique(['kind', 'key'], { indexName: 'jobs_kind_key_unique' });
      t.index(['state', 'due_at'], 'jobs_state_due_at_index');
    });
    for (const statement of builder.toSQL()) this.addSql(statement.sql);
  }

  async down(): Promise<void> {
    this.addSql('drop table if exists jobs');
  }
}
