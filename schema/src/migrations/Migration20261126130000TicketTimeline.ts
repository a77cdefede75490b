import { Migration } from '@mikro-orm/migrations';
import { PostgreSqlPlatform } from '@mikro-orm/postgresql';

/**
 * The ticket timeline: the append-only event record of every ticket change (`ticket_events`), the
 * per-ticket counter its seqs are allocated from (`tickets.event_seq`, bumped with UPDATE ... RETURNING in the
 * change's transaction), internal notes and their revisions.
 *
 * `ticket_events` has no foreign key to tickets (the history outlives the ticket) and a trigger on each database
 * refuses UPDATE and DELETE of its rows: the record is append-only in the database itself, whatever door a write
 * comes through. Notes go with their ticket (cascade); a deleted note keeps its row as a tombstone without text.
 * Existing tickets start at seq 0: their record begins with their next change.
 */
export class Migration20261126130000TicketTimeline extends Migration {
  async up(): Promise<void> {
    const knex = this.getKnex();
    const postgres = this.driver.getPlatform() instanceof PostgreSqlPlatform;
    const builder = knex.schema
      .alterTable('tickets', (t) => {
        t.integer('event_seq').notNullable().defaultTo(knex.raw('0'));
      })
      .createTable('ticket_events', (t) => {
        t.increments('id').primary();
        t.integer('ticket_id').notNullable();
        t.integer('seq').notNullable();
        t.timestamp('at', { useTz: true }).notNullable();
        t.string('actor_kind', 16).notNullable();
        t.integer('actor_id').nullable();
        t.string('actor_name', 255).notNullable();
        t.string('via', 16).notNullable();
        t.string('kind', 16).notNullable();
        t.text('changes').notNullable();
        t.integer('note_id').nullable();
        t.integer('assignee_id').notNullable();
        t.unique(['ticket_id', 'seq'], { indexName: 'ticket_events_ticket_id_seq_unique' });
      })
      .createTable('ticket_notes', (t) => {
        t.increments('id').primary();
        t.integer('ticket_id').unsigned().notNullable().references('id').inTable('tickets').onUpdate('cascade').onDelete('cascade');
        t.integer('author_id').unsigned().notNullable().references('id').inTable('users').onUpdate('cascade').onDelete('restrict');
        t.text('body').nullable();
        t.timestamp('created_at', { useTz: true }).notNullable();
        t.timestamp('edited_at', { useTz: true }).nullable();
        t.timestamp('deleted_at', { useTz: true }).nullable();
        t.index(['ticket_id'], 'ticket_notes_ticket_id_index');
        t.index(['author_id'], 'ticket_notes_author_id_index');
      })
      .createTable('ticket_note_revisions', (t) => {
        t.increments('id').primary();
        t.integer('note_id').unsigned().notNullable().references('id').inTable('ticket_notes').onUpdate('cascade').onDelete('cascade');
        t.integer('editor_id').unsigned().notNullable().references('id').inTable('users').onUpdate('cascade').onDelete('restrict');
        t.text('body').notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable();
        t.index(['note_id', 'id'], 'ticket_note_revisions_note_id_id_index');
        t.index(['editor_id'], 'ticket_note_revisions_editor_id_index');
      });
    for (const statement of builder.toSQL()) this.addSql(statement.sql);
    for (const sql of postgres ? POSTGRES : SQLITE) this.addSql(sql);
  }

  /** Back to the schema before the record (tests of earlier migrations step down through it); the history is lost. */
  async down(): Promise<void> {
    const postgres = this.driver.getPlatform() instanceof PostgreSqlPlatform;
    if (postgres) {
      this.addSql('drop table if exists ticket_note_revisions');
      this.addSql('drop table if exists ticket_notes');
      this.addSql('drop table if exists ticket_events');
      this.addSql('drop function if exists ticket_events_append_only()');
    } else {
      this.addSql('drop trigger if exists ticket_events_no_update');
      this.addSql('drop trigger if exists ticket_events_no_delete');
      this.addSql('drop table if exists ticket_note_revisions');
      this.addSql('drop table if exists ticket_notes');
      this.addSql('drop table if exists ticket_events');
    }
    this.addSql('alter table tickets drop column event_seq');
  }
}

/** The append-only rule, written out per database. */
const SQLITE = [
  `create trigger ticket_events_no_update before update on ticket_events begin
     select raise(abort, 'ticket_events is append-only');
   end`,
  `create trigger ticket_events_no_delete before delete on ticket_events begin
     select raise(abort, 'ticket_events is append-only');
   end`,
];

const POSTGRES = [
  `create function ticket_events_append_only() returns trigger language plpgsql as $$
   begin
     raise exception 'ticket_events is append-only';
   end $$`,
  'create trigger ticket_events_append_only before update or delete on ticket_events for each row execute function ticket_events_append_only()',
  // TRUNCATE skips row triggers; refuse it too.
  'create trigger ticket_events_no_truncate before truncate on ticket_events for each statement execute function ticket_events_append_only()',
];
