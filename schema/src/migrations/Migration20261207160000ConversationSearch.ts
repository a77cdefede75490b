import { Migration } from '@mikro-orm/migrations';
import { PostgreSqlPlatform } from '@mikro-orm/postgresql';

/**
 * Search over the whole conversation: one index of a ticket's conversation texts (`ticket_search_parts`, keyed by
 * the ticket id) beside the ticket's own index (`ticket_search`): agent replies (kind 1), notes (2, while not
 * deleted), requester messages (3, held ones too, as agents see them in the timeline; a discarded one has no text)
 * and attachment names (4). Triggers keep it in the transaction of each insert, update and delete of those rows, on
 * both databases; existing rows are backfilled here. The queries are in services/ticketSearch.ts.
 *
 * SQLite: an FTS5 table whose rowid is `source id * 8 + kind` (so a trigger deletes a row by rowid) and which keeps
 * `ticket_id` unindexed. PostgreSQL: one row per source (primary key kind, source id) with a tsvector and a GIN index.
 */
const SOURCES = [
  { table: 'ticket_replies', kind: 1, text: (r: string) => `${r}.body`, when: (_r: string) => '1 = 1', columns: 'body' },
  { table: 'ticket_notes', kind: 2, text: (r: string) => `${r}.body`, when: (r: string) => `${r}.body is not null`, columns: 'body' },
  { table: 'requester_messages', kind: 3, text: (r: string) => `${r}.body`, when: (_r: string) => '1 = 1', columns: 'body' },
  { table: 'reply_attachments', kind: 4, text: (r: string) => `${r}.filename`, when: (_r: string) => '1 = 1', columns: 'filename' },
] as const;

function sqlite(): string[] {
  const sql = [`create virtual table ticket_search_parts using fts5(text, ticket_id unindexed, tokenize='unicode61 remove_diacritics 2', prefix='2 3')`];
  for (const s of SOURCES) {
    const insert = (r: string) =>
      `insert into ticket_search_parts (rowid, text, ticket_id) select ${r}.id * 8 + ${s.kind}, ${s.text(r)}, ${r}.ticket_id where ${s.when(r)};`;
    sql.push(
      `create trigger ${s.table}_search_insert after insert on ${s.table} begin ${insert('new')} end`,
      `create trigger ${s.table}_search_update after update of ${s.columns} on ${s.table} begin
         delete from ticket_search_parts where rowid = old.id * 8 + ${s.kind};
         ${insert('new')}
       end`,
      `create trigger ${s.table}_search_delete after delete on ${s.table} begin
         delete from ticket_search_parts where rowid = old.id * 8 + ${s.kind};
       end`,
      `insert into ticket_search_parts (rowid, text, ticket_id) select x.id * 8 + ${s.kind}, ${s.text('x')}, x.ticket_id from ${s.table} x where ${s.when('x')}`,
    );
  }
  return sql;
}

/** PostgreSQL's parser reads "invoice_march.pdf" as one file token: punctuation only separates words, as in the query. */
const words = (text: string) => `to_tsvector('simple', regexp_replace(coalesce(${text}, ''), '[[:punct:]]+', ' ', 'g'))`;

function postgres(): string[] {
  const sql = [
    `create table ticket_search_parts (
       kind smallint not null,
       source_id integer not null,
       ticket_id integer not null references tickets (id) on delete cascade,
       document tsvector not null,
       primary key (kind, source_id)
     )`,
    'create index ticket_search_parts_document_index on ticket_search_parts using gin (document)',
    'create index ticket_search_parts_ticket_id_index on ticket_search_parts (ticket_id)',
  ];
  for (const s of SOURCES) {
    sql.push(
      `create function ${s.table}_search_sync() returns trigger language plpgsql as $$
       begin
         if tg_op <> 'INSERT' then
           delete from ticket_search_parts where kind = ${s.kind} and source_id = old.id;
         end if;
         if tg_op <> 'DELETE' and ${s.when('new')} then
           insert into ticket_search_parts (kind, source_id, ticket_id, document) values (${s.kind}, new.id, new.ticket_id, ${words(s.text('new'))});
         end if;
         return null;
       end $$`,
      `create trigger ${s.table}_search_sync after insert or delete or update of ${s.columns} on ${s.table} for each row execute function ${s.table}_search_sync()`,
      `insert into ticket_search_parts (kind, source_id, ticket_id, document) select ${s.kind}, x.id, x.ticket_id, ${words(s.text('x'))} from ${s.table} x where ${s.when('x')}`,
    );
  }
  return sql;
}

export class Migration20261207160000ConversationSearch extends Migration {
  async up(): Promise<void> {
    const pg = this.driver.getPlatform() instanceof PostgreSqlPlatform;
    for (const sql of pg ? postgres() : sqlite()) this.addSql(sql);
  }

  async down(): Promise<void> {
    const pg = this.driver.getPlatform() instanceof PostgreSqlPlatform;
    for (const s of SOURCES) {
      if (pg) {
        this.addSql(`drop trigger ${s.table}_search_sync on ${s.table}`);
        this.addSql(`drop function ${s.table}_search_sync()`);
      } else {
        for (const op of ['insert', 'update', 'delete']) this.addSql(`drop trigger ${s.table}_search_${op}`);
      }
    }
    this.addSql('drop table ticket_search_parts');
  }
}
