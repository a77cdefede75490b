import { Migration } from '@mikro-orm/migrations';
import { NO_MACRO_NAME } from '../validation/rules.js';

/**
 * The initial schema, written with knex's schema builder so the one migration runs on SQLite and PostgreSQL
 * alike. schema/src/migrations/migrations.test.ts checks that it matches the entities on both.
 */
export class Migration20261122000000Initial extends Migration {
  up(): void {
    const knex = this.getKnex();
    const builder = knex.schema
      .createTable('users', (t) => {
        t.increments('id').primary();
        t.string('username', 30).notNullable().unique({ indexName: 'users_username_unique' });
        t.string('email', 255).notNullable().unique({ indexName: 'users_email_unique' });
        t.string('password_hash', 255).notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable();
      })
      .createTable('customers', (t) => {
        t.increments('id').primary();
        t.string('name', 50).notNullable();
        t.string('email', 255).notNullable().unique({ indexName: 'customers_email_unique' });
        t.integer('owner_id').unsigned().notNullable().references('id').inTable('users').onUpdate('cascade').onDelete('restrict');
        t.timestamp('created_at', { useTz: true }).notNullable();
        t.index(['owner_id'], 'customers_owner_id_index');
      })
      .createTable('macros', (t) => {
        t.increments('id').primary();
        t.string('name', 50).notNullable();
        t.text('description').notNullable();
        t.integer('owner_id').unsigned().nullable().references('id').inTable('users').onUpdate('cascade').onDelete('restrict');
        t.timestamp('created_at', { useTz: true }).notNullable();
        t.index(['owner_id'], 'macros_owner_id_index');
      })
      .createTable('tickets', (t) => {
        t.increments('id').primary();
        t.string('title', 40).notNullable();
        t.enu('type', ['Question', 'Incident', 'Problem', 'Task']).notNullable().defaultTo('Question');
        t.enu('priority', ['Low', 'Medium', 'High', 'Urgent']).notNullable().defaultTo('Low');
        t.integer('assignee_id').unsigned().notNullable().references('id').inTable('users').onUpdate('cascade').onDelete('restrict');
        t.integer('requester_id').unsigned().notNullable().references('id').inTable('customers').onUpdate('cascade').onDelete('restrict');
        t.integer('macro_id').unsigned().notNullable().references('id').inTable('macros').onUpdate('cascade').onDelete('restrict');
        t.text('description').notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable();
        t.timestamp('updated_at', { useTz: true }).notNullable();
        t.index(['assignee_id', 'id'], 'tickets_assignee_id_id_index');
        t.index(['requester_id'], 'tickets_requester_id_index');
        t.index(['macro_id'], 'tickets_macro_id_index');
      })
      .createTable('ticket_images', (t) => {
        t.increments('id').primary();
        t.integer('ticket_id').unsigned().notNullable().references('id').inTable('tickets').onUpdate('cascade').onDelete('cascade');
        t.string('mime_type', 32).notNullable();
        t.integer('byte_size').notNullable();
        t.integer('width').notNullable();
        t.integer('height').notNullable();
        t.binary('data').notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable();
        t.unique(['ticket_id'], { indexName: 'ticket_images_ticket_id_unique' });
      })
      .createTable('messages', (t) => {
        t.increments('id').primary();
        t.integer('sender_id').unsigned().notNullable().references('id').inTable('users').onUpdate('cascade').onDelete('restrict');
        t.integer('receiver_id').unsigned().notNullable().references('id').inTable('users').onUpdate('cascade').onDelete('restrict');
        t.text('message').notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable();
        t.timestamp('updated_at', { useTz: true }).notNullable();
        t.index(['sender_id', 'receiver_id'], 'messages_sender_receiver_index');
        t.index(['receiver_id'], 'messages_receiver_id_index');
      })
      .createTable('sessions', (t) => {
        t.text('sid').notNullable().primary(); // NOT NULL spelled out: SQLite lets a non-integer primary key be NULL
        t.text('data').notNullable();
        t.integer('user_id').nullable();
        t.timestamp('expires_at', { useTz: true }).notNullable();
        t.index(['user_id'], 'sessions_user_id_index');
        t.index(['expires_at'], 'sessions_expires_at_index');
      });
    for (const statement of builder.toSQL()) this.addSql(statement.sql);
    // Macro 1, the built-in "No Macro": the first row of a new table, so it gets id 1 on every database.
    this.addSql(
      knex('macros').insert({ name: NO_MACRO_NAME, description: 'No canned reply is applied to this ticket.', owner_id: null, created_at: new Date() }),
    );
  }
}
