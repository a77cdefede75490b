import { Migration } from '@mikro-orm/migrations';
import { PostgreSqlPlatform } from '@mikro-orm/postgresql';

/**
 * Shared macros: `macros.sharing` (PRIVATE, the default and every existing macro's; TEAM; EVERYONE) and
 * `macros.team_id`, the team a TEAM macro is shared with (a deleted team sets it null). SQLite adds the column with its
 * foreign key by ALTER TABLE ... ADD COLUMN (knex would rebuild the table); PostgreSQL through knex.
 */
export class Migration20261207140000MacroSharing extends Migration {
  async up(): Promise<void> {
    const knex = this.getKnex();
    const postgres = this.driver.getPlatform() instanceof PostgreSqlPlatform;
    const builder = knex.schema.alterTable('macros', (t) => {
      t.enu('sharing', ['PRIVATE', 'TEAM', 'EVERYONE']).notNullable().defaultTo('PRIVATE');
      if (postgres) t.integer('team_id').unsigned().nullable().references('id').inTable('teams').onUpdate('cascade').onDelete('set null');
    });
    for (const statement of builder.toSQL()) this.addSql(statement.sql);
    // SQLite's down() keeps team_id (below), so an up() after it finds the column there already.
    if (!postgres && !(await this.execute("select name from pragma_table_info('macros') where name = 'team_id'")).length)
      this.addSql('alter table macros add column team_id integer null references teams (id) on update cascade on delete set null');
    this.addSql('create index macros_team_id_index on macros (team_id)');
  }

  async down(): Promise<void> {
    const postgres = this.driver.getPlatform() instanceof PostgreSqlPlatform;
    this.addSql('drop index macros_team_id_index');
    if (postgres) this.addSql('alter table macros drop column team_id');
    // SQLite keeps team_id (it drops no column a foreign key names); the entities no longer read it.
    this.addSql('alter table macros drop column sharing');
  }
}
