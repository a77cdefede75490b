import { Migration } from '@mikro-orm/migrations';

/**
 * Server-side read state: one `conversations` row per agent and partner, kept in the same transaction
 * as every message write, so the message center's list and unread counts read one row per partner. The messages
 * index gains the id, so a conversation pages newest first and counts past a read position on the index alone.
 *
 * Existing messages count as read: the server kept no read state before, so there is nothing better to say, and
 * an upgrade should not greet every agent with every message ever sent to them.
 */
export class Migration20261123130000Conversations extends Migration {
  async up(): Promise<void> {
    const knex = this.getKnex();
    const builder = knex.schema
      .createTable('conversations', (t) => {
        t.integer('user_id').unsigned().notNullable().references('id').inTable('users').onUpdate('cascade').onDelete('cascade');
        t.integer('partner_id').unsigned().notNullable().references('id').inTable('users').onUpdate('cascade').onDelete('cascade');
        t.integer('last_message_id').nullable();
        t.integer('last_read_message_id').notNullable().defaultTo(knex.raw('0'));
        t.integer('unread_count').notNullable().defaultTo(knex.raw('0'));
        t.primary(['user_id', 'partner_id']);
        t.index(['user_id', 'last_message_id'], 'conversations_user_id_last_message_id_index');
        t.index(['partner_id'], 'conversations_partner_id_index');
      })
      .alterTable('messages', (t) => {
        t.index(['sender_id', 'receiver_id', 'id'], 'messages_sender_receiver_id_index');
        t.dropIndex(['sender_id', 'receiver_id'], 'messages_sender_receiver_index');
      });
    for (const statement of builder.toSQL()) this.addSql(statement.sql);
    this.addSql(
      `insert into conversations (user_id, partner_id, last_message_id, last_read_message_id, unread_count)
       select user_id, partner_id, max(id), coalesce(max(case when incoming = 1 then id end), 0), 0
       from (select sender_id as user_id, receiver_id as partner_id, id, 0 as incoming from messages
             union all
             select receiver_id as user_id, sender_id as partner_id, id, 1 as incoming from messages) as m
       group by user_id, partner_id`,
    );
  }
}
