import { Migration } from '@mikro-orm/migrations';

/**
 * Talking to the requester: agents' public replies (`ticket_replies`, with their delivery state), what
 * requesters send (`requester_messages`), each ticket's requester link (`requester_links`: a per-ticket nonce and
 * the SHA-256 of the link's token, never the token itself) and the mail outbox (`mail_outbox`: one row per mail to
 * send, written in the reply's transaction, drained by schema/src/mail/sender.ts).
 *
 * The event record names the reply or message an event is about (`ticket_events.reply_id`,
 * `ticket_events.requester_message_id`): adding nullable columns changes no existing row, so the append-only
 * triggers stay as they are.
 */
export class Migration20261126150000RequesterReplies extends Migration {
  async up(): Promise<void> {
    const knex = this.getKnex();
    const builder = knex.schema
      .alterTable('ticket_events', (t) => {
        t.integer('reply_id').nullable();
        t.integer('requester_message_id').nullable();
      })
      .createTable('ticket_replies', (t) => {
        t.increments('id').primary();
        t.integer('ticket_id').unsigned().notNullable().references('id').inTable('tickets').onUpdate('cascade').onDelete('cascade');
        t.integer('author_id').unsigned().notNullable().references('id').inTable('users').onUpdate('cascade').onDelete('restrict');
        t.text('body').notNullable();
        t.string('to_email', 255).notNullable();
        t.string('mail_message_id', 255).notNullable();
        t.string('delivery_state', 16).notNullable();
        t.integer('delivery_attempts').notNullable();
        t.text('delivery_last_response').nullable();
        t.timestamp('created_at', { useTz: true }).notNullable();
        t.index(['ticket_id', 'id'], 'ticket_replies_ticket_id_id_index');
        t.index(['author_id'], 'ticket_replies_author_id_index');
      })
      .createTable('requester_messages', (t) => {
        t.increments('id').primary();
        t.integer('ticket_id').unsigned().notNullable().references('id').inTable('tickets').onUpdate('cascade').onDelete('cascade');
        t.string('from_email', 255).notNullable();
        t.text('body').notNullable();
        t.string('via', 16).notNullable();
        t.boolean('held').notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable();
        t.index(['ticket_id'], 'requester_messages_ticket_id_index');
      })
      .createTable('requester_links', (t) => {
        t.integer('ticket_id').unsigned().notNullable().primary().references('id').inTable('tickets').onUpdate('cascade').onDelete('cascade');
        t.string('nonce', 64).notNullable();
        t.string('token_hash', 64).notNullable().unique({ indexName: 'requester_links_token_hash_unique' });
        t.timestamp('created_at', { useTz: true }).notNullable();
      })
      .createTable('mail_outbox', (t) => {
        t.increments('id').primary();
        t.integer('reply_id').unsigned().notNullable().references('id').inTable('ticket_replies').onUpdate('cascade').onDelete('cascade');
        t.text('message').notNullable();
        t.string('state', 16).notNullable();
        t.integer('attempts').notNullable();
        t.timestamp('next_attempt_at', { useTz: true }).notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable();
        t.index(['state', 'next_attempt_at'], 'mail_outbox_state_next_attempt_at_index');
        t.index(['reply_id'], 'mail_outbox_reply_id_index');
      });
    for (const statement of builder.toSQL()) this.addSql(statement.sql);
  }

  async down(): Promise<void> {
    this.addSql('drop table if exists mail_outbox');
    this.addSql('drop table if exists requester_links');
    this.addSql('drop table if exists requester_messages');
    this.addSql('drop table if exists ticket_replies');
    this.addSql('alter table ticket_events drop column requester_message_id');
    this.addSql('alter table ticket_events drop column reply_id');
  }
}
