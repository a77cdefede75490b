import { Migration } from '@mikro-orm/migrations';

/**
 * A mail's whole subject on its ticket: `tickets.subject`, up to 998 characters (a mail header line's limit), null for
 * every ticket that did not come by mail and every existing one (null: the title is the subject).
 */
export class Migration20261207140100TicketSubject extends Migration {
  async up(): Promise<void> {
    this.addSql('alter table tickets add column subject varchar(998) null');
  }

  async down(): Promise<void> {
    this.addSql('alter table tickets drop column subject');
  }
}
