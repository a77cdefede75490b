import { Migration } from '@mikro-orm/migrations';

/**
 * Where a requester link's view starts (`requester_links.shown_after_seq`): the page shows the ticket's public
 * entries whose seq is greater. 0 (every link so far) shows the whole conversation; a change of the ticket's
 * requester draws a new link starting at the change (services/requesterLinks.ts), so the new requester does not
 * read what was said to the old one. A not-null column with a default: existing links keep showing everything.
 */
export class Migration20261207120000RequesterLinkStart extends Migration {
  async up(): Promise<void> {
    // Plain SQL, the same on SQLite and PostgreSQL (knex would quote the default as a string on SQLite).
    this.addSql('alter table requester_links add column shown_after_seq integer not null default 0');
  }

  async down(): Promise<void> {
    this.addSql('alter table requester_links drop column shown_after_seq');
  }
}
