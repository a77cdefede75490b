/**
 * Full-text search over the viewer's tickets: one API (parseSearch, matchesSql) over both databases' own engines.
 * The index itself is kept by triggers in the transaction of every ticket and customer write (migration
 * 20261123140000), so a write is searchable the moment it is acknowledged.
 *
 * Any input is safe: the text is cut into words here (letters, digits and combining marks; everything else,
 * including every operator character of either engine, only separates words) and each word is handed to the engine
 * quoted, as a literal term. So quotes, `*`, `-`, NEAR, AND, parentheses, NUL or emoji can never make a query the
 * engine refuses; they simply are not words. The length is capped before this (rules.validateSearch).
 */
import type { DatabaseKind } from '../database.js';
import { searchTicketId, searchWords } from '../validation/rules.js';
import * as ticketAccess from './ticketAccess.js';

export interface ParsedSearch {
  /** Distinct words, lower-cased, in the order typed (rules.searchWords). */
  words: string[];
  /** `123` or `#123`: the ticket with that id (still checked against the viewer). */
  ticketId: number | null;
}

export function parseSearch(text: string): ParsedSearch {
  return { words: searchWords(text), ticketId: searchTicketId(text) };
}

/**
 * A word matches itself and every word it begins (prefix search), from two characters on: a one-letter prefix
 * would read a large part of the index and find nothing a person means.
 */
const isPrefix = (word: string) => word.length >= 2;

/** SQLite FTS5: the `agent` column restricts the match to the tickets the viewer may read (ticketAccess.searchToken). */
function sqliteMatch(words: string[], scope: ticketAccess.AccessScope): string {
  const terms = words.map((w) => `"${w}"${isPrefix(w) ? '*' : ''}`).join(' AND ');
  const token = ticketAccess.searchToken(scope);
  return `${token ? `${token} AND ` : ''}{title description requester} : (${terms})`;
}

/** PostgreSQL: to_tsquery over quoted literals (the words hold no quote, backslash or operator character). */
function postgresQuery(words: string[]): string {
  return words.map((w) => `'${w}'${isPrefix(w) ? ':*' : ''}`).join(' & ');
}

/**
 * A statement yielding `(ticket_id, score)` for the viewer's tickets that match, higher score = more relevant.
 * The ticket named by its id ranks first. Ownership is enforced again by the caller's join on tickets.
 * `ranked: false` (a page in another order, a view's count): every text match scores 0, and the engine ranks
 * nothing (bm25 / ts_rank cost about half of a search with thousands of matches: docs/performance.md, 13c).
 */
export function matchesSql(kind: DatabaseKind, search: ParsedSearch, scope: ticketAccess.AccessScope, ranked = true): { sql: string; bindings: unknown[] } {
  const parts: string[] = [];
  const bindings: unknown[] = [];
  // The named ticket is its own row; the text part leaves it out, so no ticket appears twice (no GROUP BY: SQLite
  // allows bm25() only in a plain query on the FTS table).
  const notNamed = search.ticketId ? (kind === 'sqlite' ? ' and rowid <> ?' : ' and s.ticket_id <> ?') : '';
  if (search.words.length) {
    if (kind === 'sqlite') {
      // bm25 is lower-is-better; weights: title 10, description 1, requester 5, agent 0.
      const score = ranked ? '-bm25(ticket_search, 10.0, 1.0, 5.0, 0.0)' : '0.0';
      parts.push(`select rowid as ticket_id, ${score} as score from ticket_search where ticket_search match ?${notNamed}`);
      bindings.push(sqliteMatch(search.words, scope));
    } else {
      // ts_rank's default weights (A title 1.0, B requester 0.4, D description 0.1); float8 so a cursor round-trips it exactly.
      const readable = ticketAccess.searchSql(scope, 's');
      const score = ranked ? 'ts_rank(s.document, q.q)::float8' : '0.0::float8';
      parts.push(
        `select s.ticket_id, ${score} as score from ticket_search s, to_tsquery('simple', ?) as q(q) where ${readable.sql} and s.document @@ q.q${notNamed}`,
      );
      bindings.push(postgresQuery(search.words), ...readable.bindings);
    }
    if (search.ticketId) bindings.push(search.ticketId);
  }
  if (search.words.length) {
    // The conversation (replies, notes, requester messages, attachment names: ticket_search_parts, migration
    // 20261207160000): a ticket one of whose texts holds every word, read through the same access rule on its ticket.
    // It ranks below a match of the ticket's own texts (the scores are halved).
    const read = ticketAccess.readSql(scope, 't');
    if (kind === 'sqlite') {
      const score = ranked ? '-bm25(ticket_search_parts) * 0.5' : '0.0';
      parts.push(
        `select p.ticket_id, p.score from (select ticket_id, ${score} as score from ticket_search_parts where ticket_search_parts match ?) as p join tickets t on t.id = p.ticket_id where ${read.sql}${search.ticketId ? ' and p.ticket_id <> ?' : ''}`,
      );
      bindings.push(`text : (${search.words.map((w) => `"${w}"${isPrefix(w) ? '*' : ''}`).join(' AND ')})`, ...read.bindings);
    } else {
      const score = ranked ? '(ts_rank(p.document, q.q) * 0.5)::float8' : '0.0::float8';
      parts.push(
        `select p.ticket_id, ${score} as score from ticket_search_parts p join tickets t on t.id = p.ticket_id, to_tsquery('simple', ?) as q(q) where p.document @@ q.q and ${read.sql}${search.ticketId ? ' and p.ticket_id <> ?' : ''}`,
      );
      bindings.push(postgresQuery(search.words), ...read.bindings);
    }
    if (search.ticketId) bindings.push(search.ticketId);
  }
  if (search.ticketId) {
    const read = ticketAccess.readSql(scope, null);
    parts.push(`select id as ticket_id, ${kind === 'sqlite' ? '1000000000.0' : '1000000000.0::float8'} as score from tickets where id = ? and ${read.sql}`);
    bindings.push(search.ticketId, ...read.bindings);
  }
  if (!parts.length) return { sql: 'select id as ticket_id, 0.0 as score from tickets where 1 = 0', bindings: [] };
  // One row per ticket (its own texts and several conversation texts may all match), at its best score.
  return { sql: `select ticket_id, max(score) as score from (${parts.join(' union all ')}) as u group by ticket_id`, bindings };
}
