import { createHash } from 'node:crypto';
import { AppError } from '../errors.js';
import { Customer, Macro, Ticket, TicketImage, User } from '../entities/index.js';
import {
  DEFAULT_TICKET_PRIORITY,
  DEFAULT_TICKET_STATUS,
  DEFAULT_TICKET_TYPE,
  MESSAGES,
  TICKET_ORDERS,
  TICKET_PRIORITIES,
  TICKET_STATUSES,
  TICKET_TYPES,
  hasErrors,
  isTicketStatus,
  validateSearch,
  validateTicket,
  type FieldErrors,
  type TicketOrder,
  type TicketPriority,
  type TicketStatus,
  type TicketType,
} from '../validation/rules.js';
import { dateBinding, emKind, hotRead, hotReadArrays, type DatabaseKind } from '../database.js';
import { matchesSql, parseSearch, type ParsedSearch } from './ticketSearch.js';
import * as ticketAccess from './ticketAccess.js';
import { parseId, requireViewer, type ServiceContext } from './context.js';
import { pageSize } from './connection.js';
import { checkImage, type CheckedImage } from './images.js';
import { resolveUsableMacroId } from './macros.js';
import { flushWithEvents, ticketData, webhookEvent } from './changeLog.js';
import type { TicketFacets } from '../realtime/events.js';
import { ticketRecordOf, toDate, type CustomerRecord, type MacroRecord, type TicketImageRecord, type TicketRecord, type UserRecord } from '../records/index.js';

export interface TicketInput {
  title: unknown;
  type?: unknown;
  priority?: unknown;
  /** Fixed to the caller; another agent's id is refused. */
  assignee?: unknown;
  requester: unknown;
  /** apply_macro: null or missing means macro 1. */
  applyMacro?: unknown;
  description: unknown;
  /** OPEN, PENDING or SOLVED; missing keeps the ticket's status (OPEN for a new one). REST never sends it. */
  status?: unknown;
}

export { MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE } from './connection.js';

export interface TicketFilter {
  /** Words and word prefixes in title, description, requester name and email; `123` or `#123` is ticket 123. */
  search?: string | null;
  /** Any of these statuses; null or empty: every status. */
  status?: readonly string[] | null;
  priority?: readonly string[] | null;
  type?: readonly string[] | null;
  requesterId?: unknown;
}

export type StatusCounts = Record<TicketStatus, number>;

export interface TicketPage {
  nodes: TicketRecord[];
  /** Tickets matching the whole filter (every page, not just this one). */
  totalCount: number;
  /** Tickets matching the filter apart from its status part, per status. */
  statusCounts: StatusCounts;
  endCursor: string | null;
  hasNextPage: boolean;
}

/** Where a page ends: the order it belongs to, the sort key of its last row and that row's id. */
interface Cursor {
  order: TicketOrder;
  key: number;
  id: number;
}

/**
 * Opaque to clients. NEWEST keeps the original `ticket:<id>` form; the others carry their order and sort key
 * (priority rank, update time in ms, relevance score), so a cursor is only good for the order it came from.
 */
export function encodeCursor(id: number, order: TicketOrder = 'NEWEST', key: number = id): string {
  return Buffer.from(order === 'NEWEST' ? `ticket:${id}` : `ticket:${order}:${key}:${id}`).toString('base64url');
}

export function decodeCursor(cursor: string | null | undefined, order: TicketOrder = 'NEWEST'): Cursor | null {
  if (!cursor) return null;
  const text = Buffer.from(cursor, 'base64url').toString();
  const plain = /^ticket:(\d{1,15})$/.exec(text);
  const keyed = /^ticket:([A-Z]{1,12}):(-?[0-9.e+-]{1,40}):(\d{1,15})$/.exec(text);
  const parsed: Cursor | null = plain
    ? { order: 'NEWEST', key: Number(plain[1]), id: Number(plain[1]) }
    : keyed && Number.isFinite(Number(keyed[2]))
      ? { order: keyed[1] as TicketOrder, key: Number(keyed[2]), id: Number(keyed[3]) }
      : null;
  if (!parsed || parsed.order !== order || parsed.id < 1) throw AppError.validation({ after: [MESSAGES.pageCursor] });
  return parsed;
}

/**
 * Tickets are read with one SQL statement (tickets left-joined to their image's metadata), without entity
 * hydration, prepared once (hotRead): the REST list's and the ticket page's hot path. The image bytes are never
 * read here. `name` names the statement text (see hotRead).
 */
const TICKET_SELECT = `select t.id, t.title, t.type, t.priority, t.status, t.assignee_id, t.requester_id, t.macro_id, t.description, t.created_at, t.updated_at,
    i.id as image_id, i.mime_type as image_mime_type, i.byte_size as image_byte_size, i.width as image_width, i.height as image_height
  from tickets t left join ticket_images i on i.ticket_id = t.id`;

async function loadTickets(ctx: ServiceContext, name: string, where: string, params: unknown[]): Promise<TicketRecord[]> {
  // Rows as arrays (hotReadArrays): building an object per row cost as much as the read.
  const rows = await hotReadArrays(ctx.em, `${name}_raw`, `${TICKET_SELECT} ${where}`, params);
  return rows.map((row) => ticketRecordAt(row, 0));
}

/**
 * The requester, macro and assignee read with a page's tickets, keyed by the very record objects listTickets
 * returned (a WeakMap: nothing outlives the request). The GraphQL field resolvers use them to answer
 * synchronously; graphql-js then completes each row without a promise per relation. A relation the caller did
 * not ask for (PageRelations) is absent: its resolver loads it instead.
 */
export const pageRelations = new WeakMap<TicketRecord, { requester?: CustomerRecord | null; macro?: MacroRecord | null; assignee?: UserRecord | null }>();

/** Which relations of its tickets a page reads in its statement (default: all three). */
export interface PageRelations {
  requester?: boolean;
  macro?: boolean;
  assignee?: boolean;
}

/** A piece of SQL with its `?` bindings in order of appearance. */
interface Sql {
  sql: string;
  bindings: unknown[];
}
const placeholders = (values: readonly unknown[]) => `(${values.map(() => '?').join(', ')})`;
const distinct = <T extends string>(values: readonly string[] | null | undefined, allowed: readonly T[], field: string, message: string): T[] | null => {
  if (!values?.length) return null;
  if (!values.every((v) => (allowed as readonly string[]).includes(v))) throw AppError.validation({ [field]: [message] });
  const set = [...new Set(values)] as T[];
  return set.length === allowed.length ? null : set;
};

/** Validated filter: null means "no restriction" for each part. */
interface Criteria {
  viewerId: number;
  statuses: TicketStatus[] | null;
  priorities: TicketPriority[] | null;
  types: TicketType[] | null;
  requesterId: number | null;
  search: ParsedSearch | null;
  order: TicketOrder;
}

function criteria(viewerId: number, filter: TicketFilter, orderBy: string | null | undefined): Criteria {
  const fields = validateSearch(filter.search);
  if (hasErrors(fields)) throw AppError.validation(fields);
  if (orderBy != null && !(TICKET_ORDERS as readonly string[]).includes(orderBy))
    throw AppError.validation({ orderBy: [`Order must be one of ${TICKET_ORDERS.join(', ')}.`] });
  let requesterId: number | null = null;
  if (filter.requesterId != null) {
    requesterId = parseId(filter.requesterId);
    if (!requesterId) throw AppError.validation({ requesterId: [MESSAGES.ticketRequesterUnknown] });
  }
  const search = filter.search?.trim() ? parseSearch(filter.search) : null;
  const requested = (orderBy as TicketOrder | null | undefined) ?? (search ? 'RELEVANCE' : 'NEWEST');
  return {
    viewerId,
    statuses: distinct(filter.status, TICKET_STATUSES, 'status', MESSAGES.ticketStatus),
    priorities: distinct(filter.priority, TICKET_PRIORITIES, 'priority', MESSAGES.ticketPriority),
    types: distinct(filter.type, TICKET_TYPES, 'type', MESSAGES.ticketType),
    requesterId,
    search,
    order: requested === 'RELEVANCE' && !search ? 'NEWEST' : requested,
  };
}

/** Priority order is most urgent first: Urgent 3, High 2, Medium 1, Low 0. */
const PRIORITY_RANK = `(case t.priority ${TICKET_PRIORITIES.map((p, i) => `when '${p}' then ${i}`).join(' ')} end)`;

/** `and t.type in (...) and t.requester_id = ?`: the parts of a filter no index range below covers. */
function residual(c: Criteria, options: { priority: boolean; status: boolean }): Sql {
  const sql: string[] = [];
  const bindings: unknown[] = [];
  if (options.status && c.statuses) {
    sql.push(`and t.status in ${placeholders(c.statuses)}`);
    bindings.push(...c.statuses);
  }
  if (options.priority && c.priorities) {
    sql.push(`and t.priority in ${placeholders(c.priorities)}`);
    bindings.push(...c.priorities);
  }
  if (c.types) {
    sql.push(`and t.type in ${placeholders(c.types)}`);
    bindings.push(...c.types);
  }
  if (c.requesterId) {
    sql.push('and t.requester_id = ?');
    bindings.push(c.requesterId);
  }
  return { sql: sql.join(' '), bindings };
}

/**
 * The page without a search: a UNION ALL of one index range per status (and per priority, except in "last
 * update" order), each read in sort order and cut at the page size, then merged. Every range is a walk of
 * (assignee_id, status, priority, id) or (assignee_id, status, updated_at, id) from the cursor, so a page costs
 * the same at 1,000 or 1,000,000 tickets, whichever statuses and priorities are asked for. (A single range over
 * `status in (...)` would have to read and sort every matching row.)
 */
function browsePage(kind: DatabaseKind, c: Criteria, cursor: Cursor | null, limit: number): Sql {
  const branches: string[] = [];
  const bindings: unknown[] = [];
  const statuses = c.statuses ?? [...TICKET_STATUSES];
  const read = ticketAccess.readSql(c.viewerId);
  if (c.order === 'UPDATED') {
    const rest = residual(c, { priority: true, status: false });
    for (const status of statuses) {
      const after = cursor ? 'and (t.updated_at < ? or (t.updated_at = ? and t.id < ?))' : '';
      branches.push(
        `select t.id as id, t.updated_at as sk from tickets t where ${read.sql} and t.status = ? ${rest.sql} ${after} order by t.updated_at desc, t.id desc limit ?`,
      );
      bindings.push(...read.bindings, status, ...rest.bindings);
      if (cursor) bindings.push(dateBinding(kind, cursor.key), dateBinding(kind, cursor.key), cursor.id);
      bindings.push(limit);
    }
  } else if (!c.priorities && c.order !== 'PRIORITY') {
    // In id order without a priority filter: every status is one walk of (assignee_id, id) from the cursor (a union
    // of the 12 status x priority ranges would read up to 12 pages and merge them); a status filter (the web app's
    // default, unsolved) is one (assignee_id, status, id) range per status.
    const rest = residual(c, { priority: false, status: false });
    const after = cursor ? (c.order === 'OLDEST' ? 'and t.id > ?' : 'and t.id < ?') : '';
    for (const status of c.statuses ?? [null]) {
      branches.push(
        `select t.id as id, t.id as sk from tickets t where ${read.sql}${status ? ' and t.status = ?' : ''} ${rest.sql} ${after} order by t.id ${c.order === 'OLDEST' ? 'asc' : 'desc'} limit ?`,
      );
      bindings.push(...read.bindings, ...(status ? [status] : []), ...rest.bindings, ...(cursor ? [cursor.id] : []), limit);
    }
  } else {
    const rest = residual(c, { priority: false, status: false });
    for (const status of statuses) {
      for (const priority of c.priorities ?? [...TICKET_PRIORITIES]) {
        const rank = TICKET_PRIORITIES.indexOf(priority);
        let after = '';
        if (cursor && c.order === 'PRIORITY') {
          if (rank > cursor.key) continue; // wholly before the cursor
          if (rank === cursor.key) after = 'and t.id < ?';
        } else if (cursor) after = c.order === 'OLDEST' ? 'and t.id > ?' : 'and t.id < ?';
        const key = c.order === 'PRIORITY' ? String(rank) : 't.id';
        branches.push(
          `select t.id as id, ${key} as sk from tickets t where ${read.sql} and t.status = ? and t.priority = ? ${rest.sql} ${after} order by t.id ${c.order === 'OLDEST' ? 'asc' : 'desc'} limit ?`,
        );
        bindings.push(...read.bindings, status, priority, ...rest.bindings);
        if (after) bindings.push(cursor!.id);
        bindings.push(limit);
      }
    }
  }
  if (!branches.length) return { sql: 'select t.id as id, t.id as sk from tickets t where 1 = 0', bindings: [] };
  return { sql: branches.map((b, i) => `select * from (${b}) as b${i}`).join(' union all '), bindings };
}

/** The page of a search: the viewer's matches joined to their tickets, filtered, in the chosen order. */
function searchPage(kind: DatabaseKind, c: Criteria, cursor: Cursor | null, limit: number): Sql {
  const key = { RELEVANCE: 't.score', NEWEST: 't.id', OLDEST: 't.id', PRIORITY: PRIORITY_RANK, UPDATED: 't.updated_at' }[c.order];
  const statuses = c.statuses ? `and t.status in ${placeholders(c.statuses)}` : '';
  const bindings: unknown[] = [...(c.statuses ?? [])];
  let after = '';
  if (cursor) {
    if (c.order === 'NEWEST' || c.order === 'OLDEST') {
      after = c.order === 'OLDEST' ? 'and t.id > ?' : 'and t.id < ?';
      bindings.push(cursor.id);
    } else {
      const value = c.order === 'UPDATED' ? dateBinding(kind, cursor.key) : cursor.key;
      after = `and (${key} < ? or (${key} = ? and t.id < ?))`;
      bindings.push(value, value, cursor.id);
    }
  }
  bindings.push(limit);
  const order = c.order === 'OLDEST' ? 't.id asc' : c.order === 'NEWEST' ? 't.id desc' : `${key} desc, t.id desc`;
  return { sql: `select t.id as id, ${key} as sk from found t where 1 = 1 ${statuses} ${after} order by ${order} limit ?`, bindings };
}

/**
 * A search's matches joined once to their tickets, with the rest of the filter applied (all but status): the page
 * (searchPage) and the per-status counts (countsSql) both read this, so each match's ticket is read once.
 */
function foundSql(c: Criteria): Sql {
  const rest = residual(c, { priority: true, status: false });
  const read = ticketAccess.readSql(c.viewerId);
  return {
    sql: `select t.id, m.score, t.status, t.priority, t.updated_at from matches m join tickets t on t.id = m.ticket_id where ${read.sql} ${rest.sql}`,
    bindings: [...read.bindings, ...rest.bindings],
  };
}

/**
 * Per-status totals under the rest of the filter. Without a search or requester they are sums over the
 * counters the triggers keep (ticket_counts: at most 48 rows per agent), never a count over the agent's tickets.
 */
function countsSql(c: Criteria): Sql {
  const per = (count: (status: string) => string) => TICKET_STATUSES.map((s) => `${count(s)} as ${s.toLowerCase()}_count`).join(', ');
  if (!c.search && !c.requesterId) {
    const counted = ticketAccess.countsSql(c.viewerId, 'k');
    const sql = [`select ${per((s) => `coalesce(sum(case when k.status = '${s}' then k.n else 0 end), 0)`)} from ticket_counts k where ${counted.sql}`];
    const bindings: unknown[] = [...counted.bindings];
    if (c.priorities) {
      sql.push(`and k.priority in ${placeholders(c.priorities)}`);
      bindings.push(...c.priorities);
    }
    if (c.types) {
      sql.push(`and k.type in ${placeholders(c.types)}`);
      bindings.push(...c.types);
    }
    return { sql: sql.join(' '), bindings };
  }
  if (c.search) return { sql: `select ${per((s) => `count(case when t.status = '${s}' then 1 end)`)} from found t`, bindings: [] };
  const rest = residual(c, { priority: true, status: false });
  const read = ticketAccess.readSql(c.viewerId);
  return {
    sql: `select ${per((s) => `count(case when t.status = '${s}' then 1 end)`)} from tickets t where ${read.sql} ${rest.sql}`,
    bindings: [...read.bindings, ...rest.bindings],
  };
}

/**
 * The caller's tickets, filtered, searched and ordered, one page at a time (keyset cursor: sort key + id), in
 * ONE SQL statement whatever the filter: the page's ids (browsePage or searchPage), the per-status counts
 * (countsSql), and for each row its image metadata, requester, macro and assignee by primary key. The counts
 * row is the statement's driving row, so an empty page still carries them.
 *
 * The one place the dashboard list is queried (a prepared-statement cache can key on the SQL text built here).
 */
export async function listTickets(
  ctx: ServiceContext,
  page: { first?: number | null; after?: string | null; filter?: TicketFilter | null; orderBy?: string | null; relations?: PageRelations } = {},
): Promise<TicketPage> {
  const viewerId = requireViewer(ctx);
  const first = pageSize(page.first);
  const c = criteria(viewerId, page.filter ?? {}, page.orderBy);
  const cursor = decodeCursor(page.after, c.order);
  const kind = emKind(ctx.em);
  const ctes: string[] = [];
  const bindings: unknown[] = [];
  if (c.search) {
    const matches = matchesSql(kind, c.search, viewerId);
    ctes.push(`matches as materialized (${matches.sql})`);
    bindings.push(...matches.bindings);
    const found = foundSql(c);
    ctes.push(`found as materialized (${found.sql})`);
    bindings.push(...found.bindings);
  }
  const ids = c.search ? searchPage(kind, c, cursor, first + 1) : browsePage(kind, c, cursor, first + 1);
  ctes.push(`page as (${ids.sql})`);
  bindings.push(...ids.bindings);
  const counts = countsSql(c);
  ctes.push(`counts as (${counts.sql})`);
  bindings.push(...counts.bindings);
  const order = c.order === 'OLDEST' ? 'p.id asc' : c.order === 'NEWEST' ? 'p.id desc' : 'p.sk desc, p.id desc';
  bindings.push(first + 1);
  const want = { requester: page.relations?.requester ?? true, macro: page.relations?.macro ?? true, assignee: page.relations?.assignee ?? true };
  // Column positions in the rows (arrays, see hotReadArrays): PAGE_COLUMNS, then each relation read.
  const columns = [PAGE_COLUMNS.sql];
  const joins: string[] = [];
  let next = PAGE_COLUMNS.count;
  const at = { customer: -1, macro: -1, user: -1 };
  if (want.requester) {
    columns.push('c.id as c_id, c.name as c_name, c.email as c_email, c.owner_id as c_owner_id, c.created_at as c_created_at');
    joins.push('left join customers c on c.id = t.requester_id');
    at.customer = next;
    next += 5;
  }
  if (want.macro) {
    columns.push('m.id as m_id, m.name as m_name, m.description as m_description, m.owner_id as m_owner_id, m.created_at as m_created_at');
    joins.push('left join macros m on m.id = t.macro_id');
    at.macro = next;
    next += 5;
  }
  if (want.assignee) {
    columns.push('u.id as u_id, u.username as u_username, u.email as u_email, u.created_at as u_created_at');
    joins.push('left join users u on u.id = t.assignee_id');
    at.user = next;
  }
  const sql = `with ${ctes.join(', ')}
    select ${columns.join(', ')}
    from counts k
    left join (select id, sk from page p order by ${order} limit ?) as p on 1 = 1
    left join tickets t on t.id = p.id
    left join ticket_images i on i.ticket_id = t.id
    ${joins.join(' ')}
    order by ${order}`;
  // Named by its text: the filter's shape (which statuses, priorities, types, search or not, cursor or not) and the
  // relations read set it.
  const rows = await hotReadArrays(ctx.em, `ticket_page_${createHash('sha1').update(sql).digest('hex').slice(0, 16)}`, sql, bindings);
  const countsRow = rows[0];
  const statusCounts = {
    OPEN: Number(countsRow?.[COL.open] ?? 0),
    PENDING: Number(countsRow?.[COL.pending] ?? 0),
    SOLVED: Number(countsRow?.[COL.solved] ?? 0),
  };
  let totalCount = 0;
  for (const s of c.statuses ?? TICKET_STATUSES) totalCount += statusCounts[s];
  const found = rows.filter((row) => row[COL.id] != null);
  const customers = new Map<number, CustomerRecord>();
  const macros = new Map<number, MacroRecord>();
  const users = new Map<number, UserRecord>();
  const nodes: TicketRecord[] = [];
  for (const row of found.slice(0, first)) {
    const record = ticketRecordAt(row, COL.id);
    const relations: { requester?: CustomerRecord | null; macro?: MacroRecord | null; assignee?: UserRecord | null } = {};
    // One record per related row, shared by the page's tickets (as the loaders would).
    if (at.customer >= 0) relations.requester = relation(customers, row, at.customer, customerRecord);
    if (at.macro >= 0) relations.macro = relation(macros, row, at.macro, macroRecord);
    if (at.user >= 0) relations.assignee = relation(users, row, at.user, userRecord);
    // Each node's relations, for resolvers that can then answer without a promise (see pageRelations).
    pageRelations.set(record, relations);
    nodes.push(record);
  }
  const last = found[Math.min(first, found.length) - 1];
  const endKey = (row: unknown[]) => (c.order === 'UPDATED' ? toDate(row[COL.sortKey]).getTime() : Number(row[COL.sortKey]));
  return {
    nodes,
    totalCount,
    statusCounts,
    hasNextPage: found.length > first,
    endCursor: last ? encodeCursor(Number(last[COL.id]), c.order, endKey(last)) : null,
  };
}

/** The page's own columns, always read, in this order (COL names their positions). */
const PAGE_COLUMN_NAMES = [
  'p.sk as sort_key',
  'k.open_count',
  'k.pending_count',
  'k.solved_count',
  't.id',
  't.title',
  't.type',
  't.priority',
  't.status',
  't.assignee_id',
  't.requester_id',
  't.macro_id',
  't.description',
  't.created_at',
  't.updated_at',
  'i.id as image_id',
  'i.mime_type as image_mime_type',
  'i.byte_size as image_byte_size',
  'i.width as image_width',
  'i.height as image_height',
] as const;
const PAGE_COLUMNS = { sql: PAGE_COLUMN_NAMES.join(', '), count: PAGE_COLUMN_NAMES.length };
/** Positions of PAGE_COLUMN_NAMES in a row; the ticket's own columns start at `id`, in TICKET_SELECT's order. */
const COL = { sortKey: 0, open: 1, pending: 2, solved: 3, id: 4 } as const;

/**
 * The ticket whose columns start at `from` in a row read as an array, in TICKET_SELECT's order (id, title, type,
 * priority, status, assignee, requester, macro, description, created, updated, then the image's id, type, size,
 * width and height): the REST list's rows (from 0) and the dashboard page's (from COL.id).
 */
function ticketRecordAt(r: unknown[], from: number): TicketRecord {
  const id = Number(r[from]);
  const imageId = r[from + 11];
  return {
    id,
    title: r[from + 1] as string,
    type: r[from + 2] as TicketType,
    priority: r[from + 3] as TicketPriority,
    status: r[from + 4] as TicketStatus,
    assigneeId: Number(r[from + 5]),
    requesterId: Number(r[from + 6]),
    macroId: Number(r[from + 7]),
    description: r[from + 8] as string,
    image:
      imageId == null
        ? null
        : {
            id: Number(imageId),
            ticketId: id,
            mimeType: r[from + 12] as string,
            byteSize: Number(r[from + 13]),
            width: Number(r[from + 14]),
            height: Number(r[from + 15]),
          },
    createdAt: toDate(r[from + 9]),
    updatedAt: toDate(r[from + 10]),
  };
}

/** The related record whose columns start at `from`, built once per id; null when the left join found none. */
function relation<T>(seen: Map<number, T>, row: unknown[], from: number, build: (row: unknown[], from: number) => T): T | null {
  if (row[from] == null) return null;
  const id = Number(row[from]);
  let record = seen.get(id);
  if (!record) seen.set(id, (record = build(row, from)));
  return record;
}
const customerRecord = (r: unknown[], i: number): CustomerRecord => ({
  id: Number(r[i]),
  name: r[i + 1] as string,
  email: r[i + 2] as string,
  ownerId: Number(r[i + 3]),
  createdAt: toDate(r[i + 4]),
});
const macroRecord = (r: unknown[], i: number): MacroRecord => ({
  id: Number(r[i]),
  name: r[i + 1] as string,
  description: r[i + 2] as string,
  ownerId: r[i + 3] == null ? null : Number(r[i + 3]),
  createdAt: toDate(r[i + 4]),
});
const userRecord = (r: unknown[], i: number): UserRecord => ({
  id: Number(r[i]),
  username: r[i + 1] as string,
  email: r[i + 2] as string,
  createdAt: toDate(r[i + 3]),
});

/** Every ticket of the caller (the REST list, which the contract fixes as a bare array). */
export async function listAllTickets(ctx: ServiceContext): Promise<TicketRecord[]> {
  const read = ticketAccess.readSql(requireViewer(ctx));
  return loadTickets(ctx, 'tickets_of_agent', `where ${read.sql} order by t.id desc`, read.bindings);
}

/** A ticket the caller may see (their own); anything else is "not found", so ids leak nothing. */
export async function getTicket(ctx: ServiceContext, rawId: unknown): Promise<TicketRecord> {
  const viewerId = requireViewer(ctx);
  const id = parseId(rawId);
  const read = ticketAccess.readSql(viewerId);
  const [ticket] = id ? await loadTickets(ctx, 'ticket_of_agent', `where t.id = ? and ${read.sql}`, [id, ...read.bindings]) : [];
  if (!ticket) throw AppError.notFound('Ticket');
  return ticket;
}

/**
 * Whether the requester exists: one indexed read through a statement prepared once (hotRead), not an ORM count,
 * which builds, inlines and prepares its SQL on every write (8% of a ticket create's CPU in the profile). The
 * foreign key still refuses a requester deleted between this check and the insert.
 */
async function customerExists(ctx: ServiceContext, id: number): Promise<boolean> {
  return (await hotRead(ctx.em, 'customer_exists', 'select 1 as found from customers where id = ? limit 1', [id])).length > 0;
}

interface ValidTicket {
  title: string;
  type: TicketType;
  priority: TicketPriority;
  requesterId: number;
  macroId: number;
  description: string;
  status: TicketStatus | undefined;
}

/** Every rule of a ticket body, with all field errors at once. */
async function validateTicketInput(ctx: ServiceContext, input: TicketInput): Promise<ValidTicket> {
  const viewerId = requireViewer(ctx);
  const type = input.type ?? DEFAULT_TICKET_TYPE;
  const priority = input.priority ?? DEFAULT_TICKET_PRIORITY;
  const fields: FieldErrors = validateTicket({
    title: input.title,
    requester: input.requester,
    description: input.description,
    type,
    priority,
    status: input.status,
  });
  const assigneeId = input.assignee === undefined || input.assignee === null || input.assignee === '' ? viewerId : parseId(input.assignee);
  if (!ticketAccess.mayAssign(viewerId, assigneeId)) fields.assignee = ['Tickets can only be assigned to yourself.'];
  let requesterId: number | null = null;
  if (!fields.requester) {
    requesterId = parseId(input.requester);
    if (!requesterId || !(await customerExists(ctx, requesterId))) fields.requester = [MESSAGES.ticketRequesterUnknown];
  }
  const macroId = await resolveUsableMacroId(ctx, input.applyMacro);
  if (!macroId) fields.applyMacro = [MESSAGES.ticketMacro];
  if (hasErrors(fields)) throw AppError.validation(fields);
  return {
    title: String(input.title),
    type: type as TicketType,
    priority: priority as TicketPriority,
    requesterId: requesterId!,
    macroId: macroId!,
    description: String(input.description),
    status: input.status == null ? undefined : (input.status as TicketStatus),
  };
}

function assignFields(ctx: ServiceContext, ticket: Ticket, data: ValidTicket): void {
  ctx.em.assign(ticket, {
    title: data.title,
    type: data.type,
    priority: data.priority,
    description: data.description,
    requester: ctx.em.getReference(Customer, data.requesterId),
    macro: ctx.em.getReference(Macro, data.macroId),
  });
  if (data.status) ticket.status = data.status;
}

function attachImage(ctx: ServiceContext, ticket: Ticket, image: CheckedImage): void {
  if (ticket.image) ctx.em.remove(ticket.image);
  ticket.image = ctx.em.create(TicketImage, { ticket, ...image, createdAt: new Date() });
}

async function validateImageField(image: Buffer | null | undefined, required: boolean, fields: FieldErrors): Promise<CheckedImage | null> {
  if (image == null) {
    if (required) fields.image = [MESSAGES.ticketImage];
    return null;
  }
  try {
    return await checkImage(image);
  } catch (error) {
    if (error instanceof AppError && error.code === 'PAYLOAD_TOO_LARGE') throw error;
    if (error instanceof AppError && error.fields) Object.assign(fields, error.fields);
    else throw error;
    return null;
  }
}

async function validateAll(ctx: ServiceContext, input: TicketInput, image: Buffer | null | undefined, imageRequired: boolean) {
  const fields: FieldErrors = {};
  const checkedImage = await validateImageField(image, imageRequired, fields);
  let data: ValidTicket | null = null;
  try {
    data = await validateTicketInput(ctx, input);
  } catch (error) {
    if (error instanceof AppError && error.fields) Object.assign(fields, error.fields);
    else throw error;
  }
  if (hasErrors(fields)) throw AppError.validation(fields);
  return { data: data!, checkedImage };
}

/** The filterable fields of a ticket (entity or record), for the `previous` of a ticket event. */
function facetsOf(ticket: Ticket | TicketRecord): TicketFacets {
  const requesterId = 'requesterId' in ticket ? ticket.requesterId : ticket.requester.id;
  return { status: ticket.status, priority: ticket.priority, type: ticket.type, requesterId };
}

function publishTicket(ctx: ServiceContext, kind: 'CREATED' | 'UPDATED', ticket: Ticket, previous?: TicketFacets): TicketRecord {
  const record = ticketRecordOf(ticket);
  ticketAccess.publish(ctx.deps.bus, record, { kind, id: record.id, record, ...(previous ? { previous } : {}) });
  return record;
}

/**
 * Creates a ticket and its image in one transaction: both are stored or neither is. The image is required
 * (SPEC: "Image is Required") except for the legacy REST flow, which creates the ticket and then adds the image
 * with a second call (REST-CONTRACT: POST /tickets/create, then /add-image).
 */
export async function createTicket(
  ctx: ServiceContext,
  input: TicketInput,
  image: Buffer | null | undefined,
  options: { imageRequired: boolean } = { imageRequired: true },
): Promise<TicketRecord> {
  const viewerId = requireViewer(ctx);
  const { data, checkedImage } = await validateAll(ctx, input, image, options.imageRequired);
  const ticket = ctx.em.create(Ticket, {
    title: data.title,
    type: data.type,
    priority: data.priority,
    description: data.description,
    status: data.status ?? DEFAULT_TICKET_STATUS,
    assignee: ctx.em.getReference(User, ticketAccess.assigneeOnCreate(viewerId)),
    requester: ctx.em.getReference(Customer, data.requesterId),
    macro: ctx.em.getReference(Macro, data.macroId),
    createdAt: new Date(),
    updatedAt: new Date(),
  });
  if (checkedImage) attachImage(ctx, ticket, checkedImage);
  let record!: TicketRecord;
  await flushWithEvents(
    ctx,
    () => webhookEvent.ticket('CREATED', ticket),
    () => (record = publishTicket(ctx, 'CREATED', ticket)),
  );
  return record;
}

/** Edits the fields; a new image replaces the old one, no image keeps it ("noImage"). One transaction. */
export async function updateTicket(ctx: ServiceContext, rawId: unknown, input: TicketInput, image?: Buffer | null): Promise<TicketRecord> {
  const ticket = await ticketAccess.findForChange(ctx, rawId);
  const before = ticketData(ticket);
  const previous = facetsOf(ticket);
  const { data, checkedImage } = await validateAll(ctx, input, image, false);
  assignFields(ctx, ticket, data);
  ticket.updatedAt = new Date();
  if (checkedImage) attachImage(ctx, ticket, checkedImage);
  let record!: TicketRecord;
  await flushWithEvents(
    ctx,
    () => webhookEvent.ticket('UPDATED', ticket, before),
    () => (record = publishTicket(ctx, 'UPDATED', ticket, previous)),
  );
  return record;
}

/** The one-click status change of the ticket page (also live in the agent's other tabs). */
export async function setTicketStatus(ctx: ServiceContext, rawId: unknown, status: unknown): Promise<TicketRecord> {
  const ticket = await ticketAccess.findForChange(ctx, rawId);
  if (!isTicketStatus(status)) throw AppError.validation({ status: [MESSAGES.ticketStatus] });
  const previous = facetsOf(ticket);
  if (ticket.status !== status) {
    const before = ticketData(ticket);
    ticket.status = status;
    ticket.updatedAt = new Date();
    let record!: TicketRecord;
    await flushWithEvents(
      ctx,
      () => webhookEvent.ticket('UPDATED', ticket, before),
      () => (record = publishTicket(ctx, 'UPDATED', ticket, previous)),
    );
    return record;
  }
  // Nothing changed: the other tabs still hear of it (they may hold an older status).
  return publishTicket(ctx, 'UPDATED', ticket, previous);
}

/** Adds or replaces the ticket's one image (REST add-image and edit-image). */
export async function setTicketImage(ctx: ServiceContext, rawId: unknown, image: Buffer | null | undefined): Promise<TicketImageRecord> {
  const ticket = await ticketAccess.findForChange(ctx, rawId);
  const fields: FieldErrors = {};
  const checkedImage = await validateImageField(image, true, fields);
  if (hasErrors(fields) || !checkedImage) throw AppError.validation(fields);
  const before = ticketData(ticket);
  attachImage(ctx, ticket, checkedImage);
  ticket.updatedAt = new Date();
  let record!: TicketRecord;
  await flushWithEvents(
    ctx,
    () => webhookEvent.ticket('UPDATED', ticket, before),
    () => (record = publishTicket(ctx, 'UPDATED', ticket, facetsOf(ticket))),
  );
  return record.image!;
}

export async function deleteTicket(ctx: ServiceContext, rawId: unknown): Promise<number> {
  const ticket = await ticketAccess.findForChange(ctx, rawId);
  const { id } = ticket;
  const audience = ticketAccess.audience(ticket);
  const previous = facetsOf(ticket);
  // The image row goes with it (ON DELETE CASCADE, and removed here too so the identity map agrees).
  const event = webhookEvent.ticket('DELETED', ticket);
  if (ticket.image) ctx.em.remove(ticket.image);
  ctx.em.remove(ticket);
  await flushWithEvents(
    ctx,
    () => event,
    () => ticketAccess.publish(ctx.deps.bus, audience, { kind: 'DELETED', id, previous }),
  );
  return id;
}

/** The bytes of an image, for the caller's own tickets only. */
export async function getTicketImageData(ctx: ServiceContext, rawImageId: unknown): Promise<{ mimeType: string; data: Buffer; ticketId: number }> {
  const viewerId = requireViewer(ctx);
  const id = parseId(rawImageId);
  const image = id ? await ctx.em.findOne(TicketImage, { id, ticket: ticketAccess.readFilter(viewerId) }, { populate: ['data'] }) : null;
  if (!image) throw AppError.notFound('Image');
  return { mimeType: image.mimeType, data: image.data, ticketId: image.ticket.id };
}
