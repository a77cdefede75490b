import { Migration } from '@mikro-orm/migrations';

/**
 * Webhooks (docs/webhooks.md): the endpoints, the outbox of events (written in the transaction of the change it
 * describes), one job per endpoint and event (the retry state), and the log of delivery attempts.
 */
export class Migration20261123120000Webhooks extends Migration {
  async up(): Promise<void> {
    const knex = this.getKnex();
    const builder = knex.schema
      .createTable('webhooks', (t) => {
        t.increments('id').primary();
        t.integer('owner_id').unsigned().notNullable().references('id').inTable('users').onUpdate('cascade').onDelete('cascade');
        t.string('url', 2048).notNullable();
        t.text('events').notNullable();
        t.string('secret', 128).notNullable();
        t.string('previous_secret', 128).nullable();
        t.timestamp('previous_secret_expires_at', { useTz: true }).nullable();
        t.timestamp('disabled_at', { useTz: true }).nullable();
        t.string('disabled_reason', 500).nullable();
        t.integer('consecutive_failures').notNullable();
        t.timestamp('failing_since', { useTz: true }).nullable();
        t.timestamp('created_at', { useTz: true }).notNullable();
        t.timestamp('updated_at', { useTz: true }).notNullable();
        t.index(['owner_id'], 'webhooks_owner_id_index');
      })
      .createTable('webhook_events', (t) => {
        t.increments('id').primary();
        t.string('message_id', 40).notNullable().unique({ indexName: 'webhook_events_message_id_unique' });
        t.string('type', 32).notNullable();
        t.string('audience', 255).notNullable();
        t.text('payload').notNullable();
        t.boolean('fanned_out').notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable();
        t.index(['fanned_out', 'id'], 'webhook_events_fanned_out_id_index');
        t.index(['created_at'], 'webhook_events_created_at_index');
      })
      .createTable('webhook_jobs', (t) => {
        t.increments('id').primary();
        t.integer('webhook_id').unsigned().notNullable().references('id').inTable('webhooks').onUpdate('cascade').onDelete('cascade');
        t.integer('event_id').unsigned().notNullable().references('id').inTable('webhook_events').onUpdate('cascade').onDelete('cascade');
        t.string('state', 16).notNullable();
        t.integer('attempts').notNullable();
        t.integer('max_attempts').notNullable();
        t.timestamp('next_attempt_at', { useTz: true }).notNullable();
        t.timestamp('lease_until', { useTz: true }).nullable();
        t.timestamp('created_at', { useTz: true }).notNullable();
        t.timestamp('updated_at', { useTz: true }).notNullable();
        t.index(['state', 'next_attempt_at'], 'webhook_jobs_state_next_attempt_at_index');
        t.index(['webhook_id'], 'webhook_jobs_webhook_id_index');
        t.index(['event_id'], 'webhook_jobs_event_id_index');
      })
      .createTable('webhook_deliveries', (t) => {
        t.increments('id').primary();
        t.integer('webhook_id').unsigned().notNullable().references('id').inTable('webhooks').onUpdate('cascade').onDelete('cascade');
        t.integer('job_id').unsigned().notNullable().references('id').inTable('webhook_jobs').onUpdate('cascade').onDelete('cascade');
        t.string('event_type', 32).notNullable();
        t.string('message_id', 40).notNullable();
        t.integer('attempt').notNullable();
        t.integer('status_code').nullable();
        t.boolean('succeeded').notNullable();
        t.integer('duration_ms').notNullable();
        t.string('error', 500).nullable();
        t.text('response_excerpt').nullable();
        t.timestamp('created_at', { useTz: true }).notNullable();
        t.index(['webhook_id', 'id'], 'webhook_deliveries_webhook_id_id_index');
        t.index(['job_id'], 'webhook_deliveries_job_id_index');
        t.index(['created_at'], 'webhook_deliveries_created_at_index');
      });
    for (const statement of builder.toSQL()) this.addSql(statement.sql);
  }
}
