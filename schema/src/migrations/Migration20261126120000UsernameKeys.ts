import { Migration } from '@mikro-orm/migrations';
import { PostgreSqlPlatform } from '@mikro-orm/postgresql';
import { usernameKey } from '../text/usernames.js';

/**
 * Look-alike usernames: `users.username_key` holds each name's key (text/usernames.ts: NFKC, no
 * invisible characters, case-folded, UTS #39 confusables skeleton), unique together with `username_key_dup`.
 *
 * Existing look-alike accounts must keep working, so the index cannot simply be unique on the key: the first
 * account of each key (lowest id) keeps `username_key_dup = 0`, and every later account with the same key gets its
 * own id there. Every new account is written with 0, so the unique index refuses any new look-alike of a kept name
 * (also when two signups race), while the older look-alikes stay as they are. The service checks the key first
 * and answers "Username is already in use."; the index is the backstop for a race.
 *
 * The keys are computed here in JavaScript (the skeleton needs Unicode's confusables data), one update per
 * existing account, in the migration's transaction.
 */
export class Migration20261126120000UsernameKeys extends Migration {
  async up(): Promise<void> {
    const knex = this.getKnex();
    const columns = knex.schema.alterTable('users', (t) => {
      t.text('username_key').nullable();
      t.integer('username_key_dup').notNullable().defaultTo(knex.raw('0'));
    });
    for (const statement of columns.toSQL()) await this.execute(statement.sql);
    const seen = new Set<string>();
    for (const row of await this.execute('select id, username from users order by id')) {
      const id = Number(row.id);
      const key = usernameKey(String(row.username));
      await this.execute(
        knex('users')
          .where({ id })
          .update({ username_key: key, username_key_dup: seen.has(key) ? id : 0 }),
      );
      seen.add(key);
    }
    const index = knex.schema.alterTable('users', (t) => {
      t.unique(['username_key', 'username_key_dup'], { indexName: 'users_username_key_unique' });
    });
    for (const statement of index.toSQL()) await this.execute(statement.sql);
  }

  async down(): Promise<void> {
    // SQLite drops a column only once no index names it; PostgreSQL drops the unique constraint with its columns.
    if (!(this.driver.getPlatform() instanceof PostgreSqlPlatform)) this.addSql('drop index users_username_key_unique');
    this.addSql('alter table users drop column username_key_dup');
    this.addSql('alter table users drop column username_key');
  }
}
