import { Migration } from '@mikro-orm/migrations';

/**
 * Incoming mail: every mail the SMTP listener accepted, with its full original, its parsed text, its
 * sanitised HTML and its authentication result, and what it became (a ticket, a requester's message, held, a loop).
 * `message_id` is unique: several gateways accept each mail once. A held message an agent discards keeps its place
 * in the timeline as a tombstone (`requester_messages.discarded_at`; its text and files are removed).
 */
export class Migration20261126190000IncomingMail extends Migration {
  async up(): Promise<void> {
    const knex = this.getKnex();
    const builder = knex.schema
      .alterTable('requester_messages', (t) => {
        t.timestamp('discarded_at', { useTz: true }).nullable();
      })
      .createTable('incoming_mails', (t) => {
        t.increments('id').primary();
        t.string('message_id', 255).notNullable().unique({ indexName: 'incoming_mails_message_id_unique' });
        t.integer('ticket_id').unsigned().nullable().references('id').inTable('tickets').onUpdate('cascade').onDelete('set null');
        t.integer('requester_message_id').unsigned().nullable().references('id').inTable('requester_messages').onUpdate('cascade').onDelete('set null');
        t.string('outcome', 16).notNullable();
        t.string('reason', 16).nullable();
        t.string('from_email', 255).notNullable();
        t.text('subject').notNullable();
        t.text('auth').nullable();
        t.text('text').notNullable();
        t.text('html').nullable();
        t.binary('raw').notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable();
        t.index(['ticket_id'], 'incoming_mails_ticket_id_index');
        t.index(['requester_message_id'], 'incoming_mails_requester_message_id_index');
      });
    for (const statement of builder.toSQL()) this.addSql(statement.sql);
  }

  async down(): Promise<void> {
    this.addSql('drop table if exists incoming_mails');
    this.addSql('alter table requester_messages drop column discarded_at');
  }
}
