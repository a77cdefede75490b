import { Migration } from '@mikro-orm/migrations';
import { PostgreSqlPlatform } from '@mikro-orm/postgresql';

/**
 * Shared queues, part 1: roles, teams, and tickets of a team.
 *
 * - `users.role` (ADMIN or AGENT). The demo account becomes the admin; a database without it makes its oldest
 *   account the admin, so every installation has one.
 * - `teams` and `team_members`.
 * - `tickets.team_id` (nullable), `tickets.version` (the compare-and-set of assignment), and `tickets.assignee_id`
 *   nullable (an unassigned ticket of a team). SQLite cannot drop a NOT NULL: the column is replaced (added anew,
 *   copied, the old one dropped, the new one renamed), with the indexes and triggers that name it rebuilt around
 *   that; no table is rebuilt, so no foreign key action fires.
 * - The triage tables are re-keyed by team and assignee (services/ticketAccess.ts reads them with "assigned to me
 *   or of one of my teams"): `ticket_counts` gains `team_id` in its key (0 for none, the assignee 0 for none), the
 *   SQLite search index's `agent` column holds two tokens, `a<assignee>` and `t<team>`, and PostgreSQL's
 *   `ticket_search` gains `team_id`. Triggers and data are rebuilt in the migration's transaction.
 * - `ticket_events.team_id`: who may read a deleted ticket's history (its last event's team and assignee).
 */
export class Migration20261126140000Teams extends Migration {
  async up(): Promise<void> {
    const knex = this.getKnex();
    const postgres = this.driver.getPlatform() instanceof PostgreSqlPlatform;
    const builder = knex.schema
      .createTable('teams', (t) => {
        t.increments('id').primary();
        t.string('name', 50).notNullable().unique({ indexName: 'teams_name_unique' });
        t.timestamp('created_at', { useTz: true }).notNullable();
      })
      .createTable('team_members', (t) => {
        t.increments('id').primary();
        t.integer('team_id').unsigned().notNullable().references('id').inTable('teams').onUpdate('cascade').onDelete('cascade');
        t.integer('user_id').unsigned().notNullable().references('id').inTable('users').onUpdate('cascade').onDelete('cascade');
        t.timestamp('created_at', { useTz: true }).notNullable();
        t.unique(['team_id', 'user_id'], { indexName: 'team_members_team_id_user_id_unique' });
        t.index(['user_id'], 'team_members_user_id_index');
      })
      .alterTable('users', (t) => {
        t.enu('role', ['ADMIN', 'AGENT']).notNullable().defaultTo('AGENT');
        t.index(['role'], 'users_role_index');
      })
      .alterTable('ticket_events', (t) => {
        t.integer('team_id').nullable();
      });
    const statements = [
      ...builder.toSQL().map((statement) => statement.sql),
      `update users set role = 'ADMIN' where email = 'demo@fulcrum.app'`,
      `update users set role = 'ADMIN' where id = (select min(id) from users) and not exists (select 1 from users where role = 'ADMIN')`,
    ];
    if (postgres) {
      for (const sql of [...statements, ...POSTGRES_UP]) this.addSql(sql);
      return;
    }
    for (const sql of [...statements, ...SQLITE_DROP_DERIVED]) await this.execute(sql);
    await rebuildTickets(
      (sql) => this.execute(sql),
      (ddl) => ddl.replace(/[`"]assignee_id[`"] integer not null/i, '`assignee_id` integer null'),
    );
    for (const sql of SQLITE_UP) await this.execute(sql);
  }

  /** Back to one agent per ticket: refused while a ticket has no assignee (there is nobody to give it to). */
  async down(): Promise<void> {
    const postgres = this.driver.getPlatform() instanceof PostgreSqlPlatform;
    const [row] = await this.execute('select count(*) as n from tickets where assignee_id is null');
    if (Number(row?.n ?? 0) > 0) throw new Error('Unassigned tickets: assign every ticket before stepping down.');
    const rest = [
      'alter table ticket_events drop column team_id',
      'drop table team_members',
      'drop table teams',
      'drop index users_role_index',
      'alter table users drop column role',
    ];
    if (postgres) {
      for (const sql of [...POSTGRES_DOWN, ...rest]) this.addSql(sql);
      return;
    }
    for (const sql of SQLITE_DROP_DERIVED) await this.execute(sql);
    for (const sql of ['drop index tickets_team_id_id_index', 'alter table tickets drop column version']) await this.execute(sql);
    // SQLite drops a column only when no foreign key names it: the rebuild leaves team_id out.
    await rebuildTickets(
      (sql) => this.execute(sql),
      (ddl) => ddl.replace(/[`"]assignee_id[`"] integer null/i, '`assignee_id` integer not null').replace(`, ${SQLITE_TEAM_COLUMN}`, ''),
      ['team_id'],
    );
    for (const sql of [...SQLITE_DOWN, ...rest]) await this.execute(sql);
  }
}

const SQLITE_TICKET_TRIGGERS = [
  'tickets_counts_insert',
  'tickets_counts_delete',
  'tickets_counts_update',
  'tickets_search_insert',
  'tickets_search_update',
  'tickets_search_delete',
  'customers_search_update',
];

/** SQLite: the search table as the triage migration made it, and its rows, for `agent` written by `agent`. */
function sqliteSearch(agent: (t: string) => string, keyed: string): string[] {
  return [
    `create virtual table ticket_search using fts5(title, description, requester, agent, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2', prefix='2 3')`,
    `create trigger tickets_search_insert after insert on tickets begin
       insert into ticket_search (rowid, title, description, requester, agent)
         select new.id, new.title, new.description, c.name || ' ' || c.email, ${agent('new')} from customers c where c.id = new.requester_id;
     end`,
    `create trigger tickets_search_update after update of title, description, requester_id, ${keyed} on tickets begin
       delete from ticket_search where rowid = old.id;
       insert into ticket_search (rowid, title, description, requester, agent)
         select new.id, new.title, new.description, c.name || ' ' || c.email, ${agent('new')} from customers c where c.id = new.requester_id;
     end`,
    `create trigger tickets_search_delete after delete on tickets begin
       delete from ticket_search where rowid = old.id;
     end`,
    `create trigger customers_search_update after update of name, email on customers begin
       delete from ticket_search where rowid in (select id from tickets where requester_id = new.id);
       insert into ticket_search (rowid, title, description, requester, agent)
         select t.id, t.title, t.description, new.name || ' ' || new.email, ${agent('t')} from tickets t where t.requester_id = new.id;
     end`,
    `insert into ticket_search (rowid, title, description, requester, agent)
       select t.id, t.title, t.description, c.name || ' ' || c.email, ${agent('t')} from tickets t join customers c on c.id = t.requester_id`,
  ];
}

/** The counters' key columns and the values a row of tickets (`r`) counts under. */
interface CountsKey {
  columns: string;
  values: (r: string) => string;
  match: (r: string) => string;
  changed: string;
  of: string;
}

const TEAM_KEY: CountsKey = {
  columns: 'assignee_id, team_id, status, priority, type',
  values: (r) => `coalesce(${r}.assignee_id, 0), coalesce(${r}.team_id, 0), ${r}.status, ${r}.priority, ${r}.type`,
  match: (r) =>
    `assignee_id = coalesce(${r}.assignee_id, 0) and team_id = coalesce(${r}.team_id, 0) and status = ${r}.status and priority = ${r}.priority and type = ${r}.type`,
  changed:
    'old.assignee_id is not new.assignee_id or old.team_id is not new.team_id or old.status <> new.status or old.priority <> new.priority or old.type <> new.type',
  of: 'assignee_id, team_id, status, priority, type',
};

const ASSIGNEE_KEY: CountsKey = {
  columns: 'assignee_id, status, priority, type',
  values: (r) => `${r}.assignee_id, ${r}.status, ${r}.priority, ${r}.type`,
  match: (r) => `assignee_id = ${r}.assignee_id and status = ${r}.status and priority = ${r}.priority and type = ${r}.type`,
  changed: 'old.assignee_id <> new.assignee_id or old.status <> new.status or old.priority <> new.priority or old.type <> new.type',
  of: 'assignee_id, status, priority, type',
};

function sqliteCounts(key: CountsKey): string[] {
  return [
    `create trigger tickets_counts_insert after insert on tickets begin
       insert into ticket_counts (${key.columns}, n) values (${key.values('new')}, 1)
         on conflict (${key.columns}) do update set n = n + 1;
     end`,
    `create trigger tickets_counts_delete after delete on tickets begin
       update ticket_counts set n = n - 1 where ${key.match('old')};
     end`,
    `create trigger tickets_counts_update after update of ${key.of} on tickets
       when ${key.changed} begin
       update ticket_counts set n = n - 1 where ${key.match('old')};
       insert into ticket_counts (${key.columns}, n) values (${key.values('new')}, 1)
         on conflict (${key.columns}) do update set n = n + 1;
     end`,
  ];
}

/** The triage tables and their triggers, rebuilt after the tickets table. */
const SQLITE_DROP_DERIVED = [...SQLITE_TICKET_TRIGGERS.map((name) => `drop trigger ${name}`), 'drop table ticket_search', 'drop table ticket_counts'];

type Run = (sql: string) => Promise<Record<string, unknown>[]>;

/**
 * SQLite cannot change a column's NOT NULL, and dropping the tickets table with foreign keys on would delete its
 * images and notes (ON DELETE CASCADE fires on a DROP's implicit delete; the pragma cannot be turned off inside the
 * migration's transaction). So the tables that reference tickets (found at run time: images, notes, their
 * revisions and whatever references those) are saved to temporary tables and dropped first, then tickets is copied
 * into its new definition (`ddl` of the current one), and the dependants are recreated from their own DDL with
 * their rows and indexes. Ids and the autoincrement counters stay.
 */
async function rebuildTickets(run: Run, ddl: (current: string) => string, dropColumns: string[] = []): Promise<void> {
  const dependants: string[] = [];
  for (let added = ['tickets']; added.length;) {
    const next: string[] = [];
    for (const row of await run(`select name from sqlite_schema where type = 'table' and name not like 'sqlite_%'`)) {
      const name = String(row.name);
      if (name === 'tickets' || dependants.includes(name) || next.includes(name)) continue;
      const keys = await run(`select "table" as parent from pragma_foreign_key_list('${name}')`);
      if (keys.some((k) => added.includes(String(k.parent)))) next.push(name);
    }
    dependants.push(...next);
    added = next;
  }
  const schema = async (table: string) =>
    run(
      `select type, name, sql from sqlite_schema where tbl_name = '${table}' and sql is not null and type in ('table', 'index', 'trigger') order by type desc`,
    );
  const saved = new Map<string, Record<string, unknown>[]>();
  for (const table of ['tickets', ...dependants]) saved.set(table, await schema(table));
  const sequences = await run(`select name, seq from sqlite_sequence`);
  // Dependants last-first (a revision before its note), each saved with its rows.
  for (const table of [...dependants].reverse()) {
    await run(`create temp table saved_${table} as select * from ${table}`);
    await run(`drop table ${table}`);
  }
  const ticketsDdl = saved.get('tickets')!.find((r) => r.type === 'table')!.sql as string;
  const columns = (await run(`select name from pragma_table_info('tickets')`)).map((r) => String(r.name)).filter((c) => !dropColumns.includes(c));
  const list = columns.map((c) => `"${c}"`).join(', ');
  await run(ddl(ticketsDdl).replace(/^create table\s+[`"]?tickets[`"]?/i, 'create table tickets_next'));
  await run(`insert into tickets_next (${list}) select ${list} from tickets`);
  await run('drop table tickets');
  await run('alter table tickets_next rename to tickets');
  for (const table of ['tickets', ...dependants]) {
    const rows = saved.get(table)!;
    if (table !== 'tickets') {
      await run(rows.find((r) => r.type === 'table')!.sql as string);
      await run(`insert into ${table} select * from temp.saved_${table}`);
      await run(`drop table temp.saved_${table}`);
    }
    for (const r of rows) if (r.type !== 'table') await run(r.sql as string);
  }
  for (const s of sequences) await run(`update sqlite_sequence set seq = max(seq, ${Number(s.seq)}) where name = '${String(s.name)}'`);
}

/** As SQLite keeps it in the table's DDL (ADD COLUMN appends the text), so the way down can take it out again. */
const SQLITE_TEAM_COLUMN = 'team_id integer null references teams (id) on update cascade on delete restrict';

const SQLITE_UP = [
  `alter table tickets add column ${SQLITE_TEAM_COLUMN}`,
  'alter table tickets add column version integer not null default 1',
  'create index tickets_team_id_id_index on tickets (team_id, id)',
  `create table ticket_counts (
     assignee_id integer not null, team_id integer not null, status varchar(16) not null, priority varchar(16) not null,
     type varchar(16) not null, n integer not null default 0, primary key (assignee_id, team_id, status, priority, type))`,
  'create index ticket_counts_team_id_index on ticket_counts (team_id)',
  ...sqliteCounts(TEAM_KEY),
  `insert into ticket_counts (${TEAM_KEY.columns}, n) select ${TEAM_KEY.values('t')}, count(*) from tickets t group by t.assignee_id, t.team_id, t.status, t.priority, t.type`,
  ...sqliteSearch((r) => `'a' || coalesce(${r}.assignee_id, 0) || ' t' || coalesce(${r}.team_id, 0)`, 'assignee_id, team_id'),
];

const SQLITE_DOWN = [
  `create table ticket_counts (
     assignee_id integer not null, status varchar(16) not null, priority varchar(16) not null, type varchar(16) not null,
     n integer not null default 0, primary key (assignee_id, status, priority, type))`,
  ...sqliteCounts(ASSIGNEE_KEY),
  `insert into ticket_counts (${ASSIGNEE_KEY.columns}, n) select ${ASSIGNEE_KEY.values('t')}, count(*) from tickets t group by t.assignee_id, t.status, t.priority, t.type`,
  ...sqliteSearch((r) => `'a' || ${r}.assignee_id`, 'assignee_id'),
];

/**
 * PostgreSQL: the counters' trigger function keyed by `key`; the two rows of an update are touched in key order
 * (as in the triage migration), so opposite moves cannot deadlock.
 */
function postgresCounts(key: CountsKey, keyText: (r: string) => string): string[] {
  return [
    `create or replace function tickets_counts_sync() returns trigger language plpgsql as $$
     declare
       old_key text := case when tg_op <> 'INSERT' then ${keyText('old')} end;
       new_key text := case when tg_op <> 'DELETE' then ${keyText('new')} end;
     begin
       if tg_op = 'UPDATE' and old_key = new_key then return null; end if;
       if tg_op <> 'INSERT' and (tg_op = 'DELETE' or old_key < new_key) then
         update ticket_counts set n = n - 1 where ${key.match('old')};
       end if;
       if tg_op <> 'DELETE' then
         insert into ticket_counts (${key.columns}, n) values (${key.values('new')}, 1)
           on conflict (${key.columns}) do update set n = ticket_counts.n + 1;
       end if;
       if tg_op = 'UPDATE' and old_key > new_key then
         update ticket_counts set n = n - 1 where ${key.match('old')};
       end if;
       return null;
     end $$`,
    'drop trigger tickets_counts_sync on tickets',
    `create trigger tickets_counts_sync after insert or delete or update of ${key.of} on tickets for each row execute function tickets_counts_sync()`,
  ];
}

const teamKeyText = (r: string) =>
  `concat_ws('|', lpad(coalesce(${r}.assignee_id, 0)::text, 12, '0'), lpad(coalesce(${r}.team_id, 0)::text, 12, '0'), ${r}.status, ${r}.priority, ${r}.type)`;
const assigneeKeyText = (r: string) => `concat_ws('|', lpad(${r}.assignee_id::text, 12, '0'), ${r}.status, ${r}.priority, ${r}.type)`;

function postgresSearch(withTeam: boolean): string[] {
  const cols = withTeam ? 'assignee_id, team_id' : 'assignee_id';
  const vals = withTeam ? 'new.assignee_id, new.team_id' : 'new.assignee_id';
  const set = withTeam ? 'assignee_id = excluded.assignee_id, team_id = excluded.team_id' : 'assignee_id = excluded.assignee_id';
  return [
    `create or replace function tickets_search_sync() returns trigger language plpgsql as $$
     begin
       insert into ticket_search (ticket_id, ${cols}, document)
         select new.id, ${vals}, ticket_search_document(new.title, new.description, c.name, c.email) from customers c where c.id = new.requester_id
         on conflict (ticket_id) do update set ${set}, document = excluded.document;
       return null;
     end $$`,
    'drop trigger tickets_search_sync on tickets',
    `create trigger tickets_search_sync after insert or update of title, description, requester_id, ${cols} on tickets for each row execute function tickets_search_sync()`,
  ];
}

const POSTGRES_UP = [
  'alter table tickets alter column assignee_id drop not null',
  'alter table tickets add column team_id integer null',
  'alter table tickets add constraint tickets_team_id_foreign foreign key (team_id) references teams (id) on update cascade on delete restrict',
  'alter table tickets add column version integer not null default 1',
  'create index tickets_team_id_id_index on tickets (team_id, id)',
  'drop table ticket_counts',
  `create table ticket_counts (
     assignee_id integer not null, team_id integer not null, status varchar(16) not null, priority varchar(16) not null,
     type varchar(16) not null, n integer not null default 0, primary key (assignee_id, team_id, status, priority, type))`,
  'create index ticket_counts_team_id_index on ticket_counts (team_id)',
  ...postgresCounts(TEAM_KEY, teamKeyText),
  `insert into ticket_counts (${TEAM_KEY.columns}, n) select ${TEAM_KEY.values('t')}, count(*) from tickets t group by t.assignee_id, t.team_id, t.status, t.priority, t.type`,
  'alter table ticket_search alter column assignee_id drop not null',
  'alter table ticket_search add column team_id integer null',
  'create index ticket_search_team_id_index on ticket_search (team_id)',
  ...postgresSearch(true),
];

const POSTGRES_DOWN = [
  ...postgresSearch(false),
  'drop index ticket_search_team_id_index',
  'alter table ticket_search drop column team_id',
  'alter table ticket_search alter column assignee_id set not null',
  'drop table ticket_counts',
  `create table ticket_counts (
     assignee_id integer not null, status varchar(16) not null, priority varchar(16) not null, type varchar(16) not null,
     n integer not null default 0, primary key (assignee_id, status, priority, type))`,
  ...postgresCounts(ASSIGNEE_KEY, assigneeKeyText),
  `insert into ticket_counts (${ASSIGNEE_KEY.columns}, n) select ${ASSIGNEE_KEY.values('t')}, count(*) from tickets t group by t.assignee_id, t.status, t.priority, t.type`,
  'drop index tickets_team_id_id_index',
  'alter table tickets drop column version',
  'alter table tickets drop column team_id',
  'alter table tickets alter column assignee_id set not null',
];
