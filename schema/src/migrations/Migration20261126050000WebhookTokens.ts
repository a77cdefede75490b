import { Migration } from '@mikro-orm/migrations';

/**
 * Which API token created a webhook and which last changed it: such a webhook is disabled when either
 * token is revoked or expires (services/webhooks.ts). Plain columns, no foreign key: tokens are never deleted but
 * with their agent, whose webhooks go too; and SQLite cannot add a column with a foreign key in place.
 */
export class Migration20261126050000WebhookTokens extends Migration {
  async up(): Promise<void> {
    const builder = this.getKnex().schema.alterTable('webhooks', (t) => {
      t.integer('created_by_token_id').nullable();
      t.integer('changed_by_token_id').nullable();
    });
    for (const statement of builder.toSQL()) this.addSql(statement.sql);
  }

  async down(): Promise<void> {
    const builder = this.getKnex().schema.alterTable('webhooks', (t) => {
      t.dropColumn('created_by_token_id');
      t.dropColumn('changed_by_token_id');
    });
    for (const statement of builder.toSQL()) this.addSql(statement.sql);
  }
}
