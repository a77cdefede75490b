import { Migration } from '@mikro-orm/migrations';

/**
 * Mail not ticketed (docs/email.md "Mail not ticketed"): the automatic cause of a mail the listener recorded without
 * a ticket (`Precedence: list`, `Auto-Submitted: auto-replied`...) is kept beside it, and the admins' list of such
 * mail and its clean-up read `outcome = 'LOOP'` in id order, so (outcome, id) is indexed.
 */
export class Migration20261207150000NotTicketedMail extends Migration {
  async up(): Promise<void> {
    const knex = this.getKnex();
    const builder = knex.schema.alterTable('incoming_mails', (t) => {
      t.string('cause', 200).nullable();
      t.index(['outcome', 'id'], 'incoming_mails_outcome_id_index');
    });
    for (const statement of builder.toSQL()) this.addSql(statement.sql);
  }

  async down(): Promise<void> {
    const knex = this.getKnex();
    const builder = knex.schema.alterTable('incoming_mails', (t) => {
      t.dropIndex(['outcome', 'id'], 'incoming_mails_outcome_id_index');
      t.dropColumn('cause');
    });
    for (const statement of builder.toSQL()) this.addSql(statement.sql);
  }
}
