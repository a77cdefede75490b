/**
 * Cursor pagination, shared by every list (tickets, customers, macros, users). A cursor is an opaque,
 * URL-safe token naming the list it came from and the last id seen (`<kind>:<id>` in base64url): a page is
 * a keyset read from there, so its cost does not grow with the table or with how deep the caller has paged,
 * and a record created or deleted meanwhile never shifts the next page. A cursor of another list is refused.
 */
import type { Knex } from '@mikro-orm/knex';
import { AppError } from '../errors.js';
import { MESSAGES, PAGE_SIZE } from '../validation/rules.js';
import type { ServiceContext } from './context.js';

/** Page sizes are bounded (see PAGE_SIZE in validation/rules): no request can ask for a whole table. */
export const MAX_PAGE_SIZE = PAGE_SIZE.max;
export const DEFAULT_PAGE_SIZE = PAGE_SIZE.default;

/** What a caller asks for: `first` records after the `after` cursor (the start when absent). */
export interface PageArgs {
  first?: number | null;
  after?: string | null;
}

/** One page of a list, as both the services and the GraphQL connections carry it. */
export interface Page<T> {
  nodes: T[];
  /** Every record of the list (the filtered list, when filtered), not just this page. */
  totalCount: number;
  /** The cursor of the last node; null for an empty page. */
  endCursor: string | null;
  hasNextPage: boolean;
}

/** The lists that hand out cursors; a cursor is only valid on the list it came from. */
export type CursorKind = 'ticket' | 'customer' | 'macro' | 'user' | 'conversation' | 'message' | 'delivery' | 'timeline' | 'history' | 'notTicketedMail';

/** Where a page ends, as a cursor carries it: the last row's id and, for a list in another order than by id, that order and the row's sort key. */
export interface CursorPosition {
  id: number;
  sort: { order: string; key: number } | null;
}

/**
 * The one cursor codec of every list: `<kind>:<id>`, or `<kind>:<ORDER>:<key>:<id>` for a list sorted by another
 * key than its id (the ticket list's priority, update-time and relevance orders), in base64url.
 */
export function encodeCursor(kind: CursorKind, id: number, sort?: { order: string; key: number } | null): string {
  return Buffer.from(sort ? `${kind}:${sort.order}:${sort.key}:${id}` : `${kind}:${id}`).toString('base64url');
}

/**
 * The position a cursor of `kind` stands for; null for no cursor (absent, null or empty); BAD_USER_INPUT on
 * `after` (with `message`) for anything else: another list's cursor, a malformed one, an id below 1.
 */
export function readCursor(kind: CursorKind, cursor: string | null | undefined, message: string = MESSAGES.pageCursor): CursorPosition | null {
  if (cursor === null || cursor === undefined || cursor === '') return null;
  const text = typeof cursor === 'string' && cursor.length <= 160 ? Buffer.from(cursor, 'base64url').toString() : '';
  const prefix = `${kind}:`;
  const rest = text.startsWith(prefix) ? text.slice(prefix.length) : '';
  const plain = /^(\d{1,15})$/.exec(rest);
  const keyed = /^([A-Z]{1,12}):(-?[0-9.e+-]{1,40}):(\d{1,15})$/.exec(rest);
  const position: CursorPosition | null = plain
    ? { id: Number(plain[1]), sort: null }
    : keyed && Number.isFinite(Number(keyed[2]))
      ? { id: Number(keyed[3]), sort: { order: keyed[1], key: Number(keyed[2]) } }
      : null;
  if (!position || position.id < 1) throw AppError.validation({ after: [message] });
  return position;
}

/** The id a cursor of a list in id order stands for; null for no cursor; BAD_USER_INPUT on `after` for anything else. */
export function decodeCursor(kind: CursorKind, cursor: string | null | undefined, message: string = MESSAGES.pageCursor): number | null {
  const position = readCursor(kind, cursor, message);
  if (position?.sort) throw AppError.validation({ after: [message] });
  return position ? position.id : null;
}

/** The page size asked for: the default when absent; BAD_USER_INPUT on `first` outside 1..100 (never silently cut). */
export function pageSize(first: number | null | undefined): number {
  if (first === null || first === undefined) return DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(first) || first < PAGE_SIZE.min || first > MAX_PAGE_SIZE) throw AppError.validation({ first: [MESSAGES.pageSize] });
  return first;
}

/** Validated page arguments, read before any statement runs (both errors at once when both are wrong). */
function readPageArgs(kind: CursorKind, args: PageArgs): { first: number; afterId: number | null } {
  let first: number = DEFAULT_PAGE_SIZE;
  let afterId: number | null = null;
  const fields: Record<string, string[]> = {};
  try {
    first = pageSize(args.first);
  } catch (error) {
    Object.assign(fields, (error as AppError).fields);
  }
  try {
    afterId = decodeCursor(kind, args.after);
  } catch (error) {
    Object.assign(fields, (error as AppError).fields);
  }
  if (Object.keys(fields).length) throw AppError.validation(fields);
  return { first, afterId };
}

/**
 * Turns the records of a keyset read that asked for `first + 1` rows into a page: the extra row only says that
 * there is a next page (a caller that already cut the page says so with `hasNextPage`).
 */
function toPage<T extends { id: number }>(kind: CursorKind, records: T[], first: number, totalCount: number, hasNextPage = records.length > first): Page<T> {
  const nodes = records.slice(0, first);
  return { nodes, totalCount, hasNextPage, endCursor: nodes.length ? encodeCursor(kind, nodes[nodes.length - 1].id) : null };
}

export interface KeysetList<Row, T extends { id: number }> {
  kind: CursorKind;
  /** A fresh query over the list's rows, filtered (by visibility, search, ...) but neither ordered nor limited. */
  query: () => Knex.QueryBuilder;
  /** The id column the keyset walks (unique, indexed: the primary key). */
  idColumn: string;
  /** Newest first (`desc`) or oldest first (`asc`). */
  order: 'asc' | 'desc';
  toRecord: (row: Row) => T;
}

/**
 * One page of a list: the rows after the cursor in id order (one more than asked, to know whether a next page
 * exists) and the list's total, read in two statements over the same filter.
 */
export async function keysetPage<Row, T extends { id: number }>(ctx: ServiceContext, list: KeysetList<Row, T>, args: PageArgs): Promise<Page<T>> {
  const { first, afterId } = readPageArgs(list.kind, args);
  const page = list
    .query()
    .orderBy(list.idColumn, list.order)
    .limit(first + 1);
  if (afterId !== null) page.andWhere(list.idColumn, list.order === 'desc' ? '<' : '>', afterId);
  const count = list.query().clearSelect().count({ n: '*' });
  const connection = ctx.em.getConnection();
  const rows: Row[] = await connection.execute(page as never);
  const [total]: { n: number | string }[] = await connection.execute(count as never);
  return toPage(list.kind, rows.map(list.toRecord), first, Number(total?.n ?? 0));
}
