import { Migration } from '@mikro-orm/migrations';

/** Personal access tokens: only a SHA-256 of each secret is stored, looked up by its unique index. */
export class Migration20261123110000ApiTokens extends Migration {
  async up(): Promise<void> {
    const knex = this.getKnex();
    const builder = knex.schema.createTable('api_tokens', (t) => {
      t.increments('id').primary();
      t.integer('user_id').unsigned().notNullable().references('id').inTable('users').onUpdate('cascade').onDelete('cascade');
      t.string('name', 50).notNullable();
      t.string('scopes', 32).notNullable();
      t.string('token_hash', 64).notNullable().unique({ indexName: 'api_tokens_token_hash_unique' });
      t.string('hint', 4).notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('expires_at', { useTz: true }).notNullable();
      t.timestamp('last_used_at', { useTz: true }).nullable();
      t.timestamp('revoked_at', { useTz: true }).nullable();
      t.index(['user_id'], 'api_tokens_user_id_index');
    });
    for (const statement of builder.toSQL()) this.addSql(statement.sql);
  }

  async down(): Promise<void> {
    this.addSql(this.getKnex().schema.dropTable('api_tokens').toQuery());
  }
}
