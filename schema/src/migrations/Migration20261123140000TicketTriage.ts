import { Migration } from '@mikro-orm/migrations';
import { PostgreSqlPlatform } from '@mikro-orm/postgresql';

/**
 * Triage: a status on every ticket (existing tickets become OPEN), the indexes the filtered dashboard walks, and
 * two tables the database itself keeps in step with `tickets` through triggers, in the transaction of every
 * ticket write whichever door it came through (GraphQL, REST, a bulk seed):
 *
 * - `ticket_counts`: how many tickets each agent has per (status, priority, type). The dashboard's totals and
 *   per-status counts are sums over at most 48 rows, instead of counting up to every index entry of the agent.
 * - `ticket_search`: the full-text index over title, description and the requester's name and email, plus the
 *   agent (so a search only ever reads the viewer's own postings). SQLite: an FTS5 table (contentless, with
 *   delete support). PostgreSQL: a tsvector per ticket with a GIN index. The queries are in
 *   services/ticketSearch.ts.
 *
 * Neither table is an entity: `schemaGenerator.skipTables` (database.ts) keeps them out of the schema diff.
 * The DDL differs per driver and is written out in full for each, below; it is frozen here with the migration.
 */
export class Migration20261123140000TicketTriage extends Migration {
  async up(): Promise<void> {
    const knex = this.getKnex();
    const postgres = this.driver.getPlatform() instanceof PostgreSqlPlatform;
    const builder = knex.schema
      .alterTable('tickets', (t) => {
        t.enu('status', ['OPEN', 'PENDING', 'SOLVED']).notNullable().defaultTo('OPEN');
      })
      .alterTable('tickets', (t) => {
        t.index(['assignee_id', 'status', 'priority', 'id'], 'tickets_assignee_status_priority_id_index');
        t.index(['assignee_id', 'status', 'updated_at', 'id'], 'tickets_assignee_status_updated_at_id_index');
      })
      .createTable('ticket_counts', (t) => {
        t.integer('assignee_id').notNullable();
        t.string('status', 16).notNullable();
        t.string('priority', 16).notNullable();
        t.string('type', 16).notNullable();
        t.integer('n').notNullable().defaultTo(0);
        t.primary(['assignee_id', 'status', 'priority', 'type']);
      });
    for (const statement of builder.toSQL()) this.addSql(statement.sql);
    for (const sql of postgres ? POSTGRES : SQLITE) this.addSql(sql);
    this.addSql(
      'insert into ticket_counts (assignee_id, status, priority, type, n) select assignee_id, status, priority, type, count(*) from tickets group by assignee_id, status, priority, type',
    );
  }
}

/** Counters: the ticket's (assignee, status, priority, type) row goes down, the new one up (upsert). */
const SQLITE = [
  `create trigger tickets_counts_insert after insert on tickets begin
     insert into ticket_counts (assignee_id, status, priority, type, n) values (new.assignee_id, new.status, new.priority, new.type, 1)
       on conflict (assignee_id, status, priority, type) do update set n = n + 1;
   end`,
  `create trigger tickets_counts_delete after delete on tickets begin
     update ticket_counts set n = n - 1 where assignee_id = old.assignee_id and status = old.status and priority = old.priority and type = old.type;
   end`,
  `create trigger tickets_counts_update after update of assignee_id, status, priority, type on tickets
     when old.assignee_id <> new.assignee_id or old.status <> new.status or old.priority <> new.priority or old.type <> new.type begin
     update ticket_counts set n = n - 1 where assignee_id = old.assignee_id and status = old.status and priority = old.priority and type = old.type;
     insert into ticket_counts (assignee_id, status, priority, type, n) values (new.assignee_id, new.status, new.priority, new.type, 1)
       on conflict (assignee_id, status, priority, type) do update set n = n + 1;
   end`,
  // Contentless (the text stays in tickets and customers), with delete support; `agent` holds one token, a<id>.
  // prefix='2 3': prefix queries of two and three characters read one prebuilt doclist instead of every term.
  `create virtual table ticket_search using fts5(title, description, requester, agent, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2', prefix='2 3')`,
  `create trigger tickets_search_insert after insert on tickets begin
     insert into ticket_search (rowid, title, description, requester, agent)
       select new.id, new.title, new.description, c.name || ' ' || c.email, 'a' || new.assignee_id from customers c where c.id = new.requester_id;
   end`,
  `create trigger tickets_search_update after update of title, description, requester_id, assignee_id on tickets begin
     delete from ticket_search where rowid = old.id;
     insert into ticket_search (rowid, title, description, requester, agent)
       select new.id, new.title, new.description, c.name || ' ' || c.email, 'a' || new.assignee_id from customers c where c.id = new.requester_id;
   end`,
  `create trigger tickets_search_delete after delete on tickets begin
     delete from ticket_search where rowid = old.id;
   end`,
  `create trigger customers_search_update after update of name, email on customers begin
     delete from ticket_search where rowid in (select id from tickets where requester_id = new.id);
     insert into ticket_search (rowid, title, description, requester, agent)
       select t.id, t.title, t.description, new.name || ' ' || new.email, 'a' || t.assignee_id from tickets t where t.requester_id = new.id;
   end`,
  `insert into ticket_search (rowid, title, description, requester, agent)
     select t.id, t.title, t.description, c.name || ' ' || c.email, 'a' || t.assignee_id from tickets t join customers c on c.id = t.requester_id`,
];

/**
 * PostgreSQL: 'simple' configuration (no stemming, no stop words: prefixes behave as on SQLite); the email's
 * punctuation becomes spaces so each part is a word (the default parser would keep a whole address as one
 * lexeme). Title weighs A, requester B, description D (ts_rank's weights). Deleting a ticket cascades.
 */
const POSTGRES = [
  `create function ticket_search_document(title text, description text, requester_name text, requester_email text) returns tsvector
     language sql immutable parallel safe as $$
       select setweight(to_tsvector('simple', title), 'A')
           || setweight(to_tsvector('simple', requester_name || ' ' || translate(requester_email, '@.-_+', '     ')), 'B')
           || setweight(to_tsvector('simple', description), 'D')
     $$`,
  `create table ticket_search (
     ticket_id integer not null primary key references tickets (id) on update cascade on delete cascade,
     assignee_id integer not null,
     document tsvector not null
   )`,
  'create index ticket_search_document_index on ticket_search using gin (document)',
  'create index ticket_search_assignee_id_index on ticket_search (assignee_id)',
  `create function tickets_search_sync() returns trigger language plpgsql as $$
   begin
     insert into ticket_search (ticket_id, assignee_id, document)
       select new.id, new.assignee_id, ticket_search_document(new.title, new.description, c.name, c.email) from customers c where c.id = new.requester_id
       on conflict (ticket_id) do update set assignee_id = excluded.assignee_id, document = excluded.document;
     return null;
   end $$`,
  'create trigger tickets_search_sync after insert or update of title, description, requester_id, assignee_id on tickets for each row execute function tickets_search_sync()',
  `create function customers_search_sync() returns trigger language plpgsql as $$
   begin
     update ticket_search s set document = ticket_search_document(t.title, t.description, new.name, new.email)
       from tickets t where t.requester_id = new.id and s.ticket_id = t.id;
     return null;
   end $$`,
  'create trigger customers_search_sync after update of name, email on customers for each row execute function customers_search_sync()',
  // The two counter rows of an update are touched in key order, so two transactions moving tickets in opposite
  // directions (OPEN -> SOLVED and SOLVED -> OPEN) lock them in the same order and cannot deadlock.
  `create function tickets_counts_sync() returns trigger language plpgsql as $$
   declare
     old_key text := case when tg_op <> 'INSERT' then concat_ws('|', lpad(old.assignee_id::text, 12, '0'), old.status, old.priority, old.type) end;
     new_key text := case when tg_op <> 'DELETE' then concat_ws('|', lpad(new.assignee_id::text, 12, '0'), new.status, new.priority, new.type) end;
   begin
     if tg_op = 'UPDATE' and old_key = new_key then return null; end if;
     if tg_op <> 'INSERT' and (tg_op = 'DELETE' or old_key < new_key) then
       update ticket_counts set n = n - 1 where assignee_id = old.assignee_id and status = old.status and priority = old.priority and type = old.type;
     end if;
     if tg_op <> 'DELETE' then
       insert into ticket_counts (assignee_id, status, priority, type, n) values (new.assignee_id, new.status, new.priority, new.type, 1)
         on conflict (assignee_id, status, priority, type) do update set n = ticket_counts.n + 1;
     end if;
     if tg_op = 'UPDATE' and old_key > new_key then
       update ticket_counts set n = n - 1 where assignee_id = old.assignee_id and status = old.status and priority = old.priority and type = old.type;
     end if;
     return null;
   end $$`,
  'create trigger tickets_counts_sync after insert or delete or update of assignee_id, status, priority, type on tickets for each row execute function tickets_counts_sync()',
  `insert into ticket_search (ticket_id, assignee_id, document)
     select t.id, t.assignee_id, ticket_search_document(t.title, t.description, c.name, c.email) from tickets t join customers c on c.id = t.requester_id`,
];
