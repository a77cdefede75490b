import { Migration } from '@mikro-orm/migrations';

/**
 * A ticket opened by a mail held for review (a forgery from a p=reject domain, an agent's mail that is not
 * authenticated or names no requester): `tickets.held_opening_message_id` names that held message until an agent
 * accepts it. While it is set the ticket has no requester side: the requester page does not show it and no reply
 * is mailed (docs/email.md "Forged mail"). Null for every other ticket and every existing one.
 */
export class Migration20261207180500HeldOpening extends Migration {
  async up(): Promise<void> {
    this.addSql('alter table tickets add column held_opening_message_id integer null');
  }

  async down(): Promise<void> {
    this.addSql('alter table tickets drop column held_opening_message_id');
  }
}
