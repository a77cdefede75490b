import { Migration } from '@mikro-orm/migrations';
import { PostgreSqlPlatform } from '@mikro-orm/postgresql';

/**
 * The whole subject is searched: the search index's title part becomes the title and the mail's whole subject
 * (`tickets.subject`), kept by the same triggers in the transaction of each write (SQLite FTS5 and PostgreSQL
 * tsvector, as migrations 20261123140000 and 20261126140000 built them). No row needs a backfill: the subject column is
 * new (20261207140100) and null on every existing ticket.
 */
const TITLE = (r: string) => `${r}.title || coalesce(' ' || ${r}.subject, '')`;
const AGENT = (r: string) => `'a' || coalesce(${r}.assignee_id, 0) || ' t' || coalesce(${r}.team_id, 0)`;

const sqliteTriggers = (title: (r: string) => string, subject: string) => [
  'drop trigger tickets_search_insert',
  'drop trigger tickets_search_update',
  'drop trigger customers_search_update',
  `create trigger tickets_search_insert after insert on tickets begin
     insert into ticket_search (rowid, title, description, requester, agent)
       select new.id, ${title('new')}, new.description, c.name || ' ' || c.email, ${AGENT('new')} from customers c where c.id = new.requester_id;
   end`,
  `create trigger tickets_search_update after update of title, ${subject}description, requester_id, assignee_id, team_id on tickets begin
     delete from ticket_search where rowid = old.id;
     insert into ticket_search (rowid, title, description, requester, agent)
       select new.id, ${title('new')}, new.description, c.name || ' ' || c.email, ${AGENT('new')} from customers c where c.id = new.requester_id;
   end`,
  `create trigger customers_search_update after update of name, email on customers begin
     delete from ticket_search where rowid in (select id from tickets where requester_id = new.id);
     insert into ticket_search (rowid, title, description, requester, agent)
       select t.id, ${title('t')}, t.description, new.name || ' ' || new.email, ${AGENT('t')} from tickets t where t.requester_id = new.id;
   end`,
];

const postgresTriggers = (title: (r: string) => string, subject: string) => [
  `create or replace function tickets_search_sync() returns trigger language plpgsql as $$
   begin
     insert into ticket_search (ticket_id, assignee_id, team_id, document)
       select new.id, new.assignee_id, new.team_id, ticket_search_document(${title('new')}, new.description, c.name, c.email) from customers c where c.id = new.requester_id
       on conflict (ticket_id) do update set assignee_id = excluded.assignee_id, team_id = excluded.team_id, document = excluded.document;
     return null;
   end $$`,
  'drop trigger tickets_search_sync on tickets',
  `create trigger tickets_search_sync after insert or update of title, ${subject}description, requester_id, assignee_id, team_id on tickets for each row execute function tickets_search_sync()`,
  `create or replace function customers_search_sync() returns trigger language plpgsql as $$
   begin
     update ticket_search s set document = ticket_search_document(${title('t')}, t.description, new.name, new.email)
       from tickets t where t.requester_id = new.id and s.ticket_id = t.id;
     return null;
   end $$`,
];

export class Migration20261207140200SubjectSearch extends Migration {
  async up(): Promise<void> {
    const postgres = this.driver.getPlatform() instanceof PostgreSqlPlatform;
    for (const sql of postgres ? postgresTriggers(TITLE, 'subject, ') : sqliteTriggers(TITLE, 'subject, ')) this.addSql(sql);
  }

  async down(): Promise<void> {
    const postgres = this.driver.getPlatform() instanceof PostgreSqlPlatform;
    const title = (r: string) => `${r}.title`;
    for (const sql of postgres ? postgresTriggers(title, '') : sqliteTriggers(title, '')) this.addSql(sql);
  }
}
