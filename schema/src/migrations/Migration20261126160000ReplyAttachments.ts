import { Migration } from '@mikro-orm/migrations';

/**
 * Files on the public conversation: the attachments of an agent's reply to the requester, and (for the
 * requester page's answers) of a requester's message. Each row belongs to exactly one of them; the bytes live
 * beside the ticket as ticket images do, so a reply and its files commit or fail together. Internal notes have no
 * attachments at all: no column here can name one.
 */
export class Migration20261126160000ReplyAttachments extends Migration {
  async up(): Promise<void> {
    const knex = this.getKnex();
    const builder = knex.schema.createTable('reply_attachments', (t) => {
      t.increments('id').primary();
      t.integer('ticket_id').unsigned().notNullable().references('id').inTable('tickets').onUpdate('cascade').onDelete('cascade');
      t.integer('reply_id').unsigned().nullable().references('id').inTable('ticket_replies').onUpdate('cascade').onDelete('cascade');
      t.integer('requester_message_id').unsigned().nullable().references('id').inTable('requester_messages').onUpdate('cascade').onDelete('cascade');
      t.string('filename', 255).notNullable();
      t.string('mime_type', 64).notNullable();
      t.integer('byte_size').notNullable();
      t.binary('data').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.index(['reply_id'], 'reply_attachments_reply_id_index');
      t.index(['requester_message_id'], 'reply_attachments_requester_message_id_index');
      t.index(['ticket_id'], 'reply_attachments_ticket_id_index');
    });
    for (const statement of builder.toSQL()) this.addSql(statement.sql);
  }

  async down(): Promise<void> {
    this.addSql('drop table if exists reply_attachments');
  }
}
