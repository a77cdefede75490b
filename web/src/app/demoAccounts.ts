/**
 * The seeded demo agents (Demo Login, "Log in as Demo User", the message center's demo helper).
 *
 * Decision: `@fulcrum/schema/demo` stays the one import from schema/ besides the shared validation module
 * (`@fulcrum/schema/validation`); the lint boundary allows exactly these two. Why: the schema package's seed writes
 * these accounts into the database, and the web app must log in with exactly those credentials; one definition
 * cannot drift. The module is dependency-free (no ORM, no decorators), so the browser bundle takes nothing of the
 * server with it. Moving the data into web/ would make the seed import web code (against the dependency direction)
 * or copy the list.
 */
export { DEMO_USER, demoAccountFor } from '@fulcrum/schema/demo';
