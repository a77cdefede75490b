import { Migration } from '@mikro-orm/migrations';
import { PostgreSqlPlatform } from '@mikro-orm/postgresql';

/**
 * What ties a mail to a ticket and to its record (docs/email.md):
 *
 * - `tickets.thread_token`: 128 random bits in the ticket's thread root `<ticket-<id>.<token>@host>`
 *   (mail/threadRoot.ts), drawn here for every existing ticket (SQLite: randomblob; PostgreSQL: md5 of two
 *   gen_random_uuid(), 244 random bits from the server's strong source folded into 128) and by the entity for new ones.
 * - `incoming_mails.content_hash` (mail/messageId.ts): the unique key becomes (message_id, content_hash), so a
 *   different mail reusing a Message-ID is recorded too. Mail recorded before keeps '' (the service counts a
 *   redelivery of it as the same mail).
 */
export class Migration20261207110000MailIdentity extends Migration {
  async up(): Promise<void> {
    const postgres = this.driver.getPlatform() instanceof PostgreSqlPlatform;
    const knex = this.getKnex();
    const add = knex.schema
      .alterTable('tickets', (t) => {
        t.string('thread_token', 32).nullable();
      })
      .alterTable('incoming_mails', (t) => {
        t.string('content_hash', 64).notNullable().defaultTo('');
      });
    for (const statement of add.toSQL()) this.addSql(statement.sql);
    this.addSql(
      postgres
        ? 'update tickets set thread_token = md5(gen_random_uuid()::text || gen_random_uuid()::text) where thread_token is null'
        : 'update tickets set thread_token = lower(hex(randomblob(16))) where thread_token is null',
    );
    this.addSql(postgres ? 'alter table incoming_mails drop constraint incoming_mails_message_id_unique' : 'drop index incoming_mails_message_id_unique');
    const unique = knex.schema.alterTable('incoming_mails', (t) => {
      t.unique(['message_id', 'content_hash'], { indexName: 'incoming_mails_message_id_content_hash_unique' });
    });
    for (const statement of unique.toSQL()) this.addSql(statement.sql);
  }

  async down(): Promise<void> {
    const postgres = this.driver.getPlatform() instanceof PostgreSqlPlatform;
    this.addSql(
      postgres
        ? 'alter table incoming_mails drop constraint incoming_mails_message_id_content_hash_unique'
        : 'drop index incoming_mails_message_id_content_hash_unique',
    );
    this.addSql('alter table incoming_mails drop column content_hash');
    this.addSql('alter table tickets drop column thread_token');
    // Back to one entry per Message-ID (fails while two mails share one: remove one of them first).
    const unique = this.getKnex().schema.alterTable('incoming_mails', (t) => {
      t.unique(['message_id'], { indexName: 'incoming_mails_message_id_unique' });
    });
    for (const statement of unique.toSQL()) this.addSql(statement.sql);
  }
}
