/**
 * Reading tickets: the dashboard's pages (one SQL statement per page, built here: filter, search, order, keyset
 * cursor, per-status counts and the relations asked for), the REST list, one ticket, an image's bytes. Every
 * read applies the ticket-access policy (ticketAccess.readSql / readFilter).
 */
import { createHash } from 'node:crypto';
import { AppError } from '../errors.js';
import { TicketImage } from '../entities/index.js';
import {
  MESSAGES,
  TICKET_ORDERS,
  TICKET_PRIORITIES,
  TICKET_STATUSES,
  TICKET_TYPES,
  hasErrors,
  validateSearch,
  type TicketOrder,
  type TicketPriority,
  type TicketStatus,
  type TicketType,
} from '../validation/rules.js';
import { dateBinding, emKind, preparedReadArrays, type DatabaseKind } from '../database.js';
import { matchesSql, parseSearch, type ParsedSearch } from './ticketSearch.js';
import * as ticketAccess from './ticketAccess.js';
import { whereSql } from './rules/conditionSql.js';
import type { ConditionInput } from '../conditions/index.js';
import { parseId, type ServiceContext } from './context.js';
import { encodeCursor as encodeListCursor, pageSize, readCursor } from './connection.js';
import { toDate, type CustomerRecord, type MacroRecord, type TicketRecord, type UserRecord } from '../records/index.js';
import {
  COL,
  PAGE_COLUMNS,
  TICKET_EVENT_SEQ,
  TICKET_SELECT,
  TICKET_SELECT_WITH_SEQ,
  customerRecord,
  macroRecord,
  relation,
  ticketRecordAt,
  userRecord,
  type TicketRelations,
} from './recordColumns.js';

export { MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE } from './connection.js';

export interface TicketFilter {
  /** Words and word prefixes in title, description, requester name and email; `123` or `#123` is ticket 123. */
  search?: string | null;
  /** Any of these statuses; null or empty: every status. */
  status?: readonly string[] | null;
  priority?: readonly string[] | null;
  type?: readonly string[] | null;
  requesterId?: unknown;
  /** Only the tickets assigned to the viewer ("My tickets"); otherwise every ticket the viewer may read. */
  assignedToMe?: boolean | null;
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
  /**
   * The requester, macro and assignee read with each node, in the nodes' order (one record per related row,
   * shared by the page's tickets): the GraphQL layer answers the relation fields from them without a promise.
   */
  relations: TicketRelations[];
}

/** Where a page ends: the order it belongs to, the sort key of its last row and that row's id. */
interface Cursor {
  order: TicketOrder;
  key: number;
  id: number;
}

/**
 * Opaque to clients, in the project's one cursor codec (connection.ts): NEWEST keeps the original `ticket:<id>`
 * form; the others carry their order and sort key (priority rank, update time in ms, relevance score), so a
 * cursor is only good for the order it came from.
 */
export function encodeCursor(id: number, order: TicketOrder = 'NEWEST', key: number = id): string {
  return encodeListCursor('ticket', id, order === 'NEWEST' ? null : { order, key });
}

export function decodeCursor(cursor: string | null | undefined, order: TicketOrder = 'NEWEST'): Cursor | null {
  const position = readCursor('ticket', cursor);
  if (!position) return null;
  const parsed: Cursor = position.sort
    ? { order: position.sort.order as TicketOrder, key: position.sort.key, id: position.id }
    : { order: 'NEWEST', key: position.id, id: position.id };
  if (parsed.order !== order) throw AppError.validation({ after: [MESSAGES.pageCursor] });
  return parsed;
}

async function loadTicketRows(ctx: ServiceContext, name: string, select: string, where: string, params: unknown[]): Promise<unknown[][]> {
  // Rows as arrays (preparedReadArrays): building an object per row cost as much as the read.
  // Named by its text too: the access condition's shape (an agent alone, with teams, an admin) changes it.
  const sql = `${select} ${where}`;
  return preparedReadArrays(ctx.em, `${name}_${createHash('sha1').update(sql).digest('hex').slice(0, 12)}`, sql, params);
}

async function loadTickets(ctx: ServiceContext, name: string, where: string, params: unknown[]): Promise<TicketRecord[]> {
  return (await loadTicketRows(ctx, name, TICKET_SELECT, where, params)).map((row) => ticketRecordAt(row, 0));
}

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
  /** Whose tickets (the access policy's scope of the viewer). */
  scope: ticketAccess.AccessScope;
  /** "My tickets": only those assigned to the viewer (the dashboard's default list), within the scope. */
  mine: boolean;
  statuses: TicketStatus[] | null;
  priorities: TicketPriority[] | null;
  types: TicketType[] | null;
  requesterId: number | null;
  search: ParsedSearch | null;
  order: TicketOrder;
  /** A condition tree (`tickets(where:)`), compiled (services/rules/conditionSql.ts). */
  where?: Sql | null;
}

function criteria(scope: ticketAccess.AccessScope, filter: TicketFilter, orderBy: string | null | undefined, view?: PageView | null): Criteria {
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
    // "Assigned to me" is the scope of an agent in no team: the same fragment, bindings and plans as before teams.
    // A view's scope replaces "assigned to me": the rule's viewScope, "may read" AND the view's part.
    scope: view
      ? ticketAccess.viewScope(scope, view.scope, view.teamId)
      : filter.assignedToMe
        ? { viewerId: scope.viewerId, admin: false, teamIds: [] }
        : scope,
    mine: view ? view.scope === 'MINE' : Boolean(filter.assignedToMe),
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
  if (c.where) {
    sql.push(`and ${c.where.sql}`);
    bindings.push(...c.where.bindings);
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
  const read = ticketAccess.readSql(c.scope);
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
  const read = ticketAccess.readSql(c.scope);
  return {
    sql: `select t.id, m.score, t.status, t.priority, t.updated_at from matches m join tickets t on t.id = m.ticket_id where ${read.sql} ${rest.sql}`,
    bindings: [...read.bindings, ...rest.bindings],
  };
}

/**
 * Per-status totals under the rest of the filter. Without a search or requester they are sums over the
 * counters the triggers keep (ticket_counts: at most 48 rows per agent), never a count over the agent's tickets.
 */
function countsSql(c: Criteria, found = 'found'): Sql {
  const per = (count: (status: string) => string) => TICKET_STATUSES.map((s) => `${count(s)} as ${s.toLowerCase()}_count`).join(', ');
  if (!c.search && !c.requesterId && !c.where) {
    const counted = ticketAccess.countsSql(c.scope, 'k');
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
  if (c.search) return { sql: `select ${per((s) => `count(case when t.status = '${s}' then 1 end)`)} from ${found} t`, bindings: [] };
  const rest = residual(c, { priority: true, status: false });
  const read = ticketAccess.readSql(c.scope);
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
  page: {
    first?: number | null;
    after?: string | null;
    filter?: TicketFilter | null;
    orderBy?: string | null;
    relations?: PageRelations;
    /** A view's scope (services/views.ts resolves `tickets(viewId)`); its filter comes in `filter`. */
    view?: PageView | null;
    /** A condition tree over the ticket fields (conditions/), applied with the filter (both hold). */
    where?: ConditionInput | null;
  } = {},
): Promise<TicketPage> {
  const first = pageSize(page.first);
  const kind = emKind(ctx.em);
  const c = { ...criteria(await ticketAccess.scopeOf(ctx), page.filter ?? {}, page.orderBy, page.view), where: whereSql(kind, page.where) };
  const cursor = decodeCursor(page.after, c.order);
  const ctes: string[] = [];
  const bindings: unknown[] = [];
  if (c.search) {
    // Scored only when the page is in relevance order.
    const matches = matchesSql(kind, c.search, c.scope, c.order === 'RELEVANCE');
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
  // Column positions in the rows (arrays, see preparedReadArrays): PAGE_COLUMNS, then each relation read.
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
    columns.push(
      'm.id as m_id, m.name as m_name, m.description as m_description, m.owner_id as m_owner_id, m.created_at as m_created_at, m.sharing as m_sharing, m.team_id as m_team_id',
    );
    joins.push('left join macros m on m.id = t.macro_id');
    at.macro = next;
    next += 7;
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
  const rows = await preparedReadArrays(ctx.em, `ticket_page_${createHash('sha1').update(sql).digest('hex').slice(0, 16)}`, sql, bindings);
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
  const related: TicketRelations[] = [];
  for (const row of found.slice(0, first)) {
    const record = ticketRecordAt(row, COL.id);
    const relations: TicketRelations = {};
    // One record per related row, shared by the page's tickets (as the loaders would).
    if (at.customer >= 0) relations.requester = relation(customers, row, at.customer, customerRecord);
    if (at.macro >= 0) relations.macro = relation(macros, row, at.macro, macroRecord);
    if (at.user >= 0) relations.assignee = relation(users, row, at.user, userRecord);
    nodes.push(record);
    related.push(relations);
  }
  const last = found[Math.min(first, found.length) - 1];
  const endKey = (row: unknown[]) => (c.order === 'UPDATED' ? toDate(row[COL.sortKey]).getTime() : Number(row[COL.sortKey]));
  return {
    nodes,
    relations: related,
    totalCount,
    statusCounts,
    hasNextPage: found.length > first,
    endCursor: last ? encodeCursor(Number(last[COL.id]), c.order, endKey(last)) : null,
  };
}

/** The scope part of a view: which tickets it reads before its filter. */
export interface PageView {
  scope: ticketAccess.ViewScopeKind;
  teamId: number | null;
}

/** A filter checked as a page would check it (its errors are the page's); throws VALIDATION. */
export function checkFilter(filter: TicketFilter): void {
  criteria({ viewerId: 0, admin: false, teamIds: [] }, filter, null);
}

/**
 * The totals of many views at once, each exactly the `totalCount` its page would report (the same counts
 * statement, countsSql, summed over the same statuses), in ONE statement: a union of one counts row per view
 * (a search's matches as CTEs of their own). `scope` is each viewer's access scope; the view's part is applied with
 * the rule's viewScope, as on the page.
 */
export async function viewTotals(
  ctx: Pick<ServiceContext, 'em'>,
  views: readonly { scope: ticketAccess.AccessScope; view: PageView; filter: TicketFilter }[],
): Promise<number[]> {
  if (!views.length) return [];
  const kind = emKind(ctx.em);
  const ctes: string[] = [];
  const cteBindings: unknown[] = [];
  const parts: string[] = [];
  const bindings: unknown[] = [];
  const all = views.map(({ scope, view, filter }, i) => {
    const c = criteria(scope, filter, null, view);
    if (c.search) {
      // A count needs no ranking.
      const matches = matchesSql(kind, c.search, c.scope, false);
      const found = foundSql(c);
      ctes.push(`m${i} as materialized (${matches.sql})`, `f${i} as materialized (${found.sql.replace('from matches m', `from m${i} m`)})`);
      cteBindings.push(...matches.bindings, ...found.bindings);
    }
    const counts = countsSql(c, `f${i}`);
    parts.push(`select ${i} as v, x.* from (${counts.sql}) as x`);
    bindings.push(...counts.bindings);
    return c;
  });
  const sql = `${ctes.length ? `with ${ctes.join(', ')} ` : ''}${parts.join(' union all ')}`;
  const rows = await ctx.em.getConnection().execute<Record<string, unknown>[]>(sql, [...cteBindings, ...bindings], 'all');
  const totals = all.map(() => 0);
  for (const row of rows) {
    const c = all[Number(row.v)];
    for (const s of c.statuses ?? TICKET_STATUSES) totals[Number(row.v)] += Number(row[`${s.toLowerCase()}_count`] ?? 0);
  }
  return totals;
}

/** Every ticket the caller may read (the REST list, which the contract fixes as a bare array: the caller's own). */
export async function listAllTickets(ctx: ServiceContext): Promise<TicketRecord[]> {
  const read = ticketAccess.readSql(await ticketAccess.scopeOf(ctx));
  return loadTickets(ctx, 'tickets_of_agent', `where ${read.sql} order by t.id desc`, read.bindings);
}

/** A ticket the caller may see (the access policy); anything else is "not found", so ids leak nothing. */
export async function getTicket(ctx: ServiceContext, rawId: unknown): Promise<TicketRecord> {
  const id = parseId(rawId);
  if (!id) throw AppError.notFound('Ticket');
  // The viewer's scope and the ticket are read side by side (on PostgreSQL two round trips at once, not one after
  // the other), then the rule is applied to the ticket at hand (ticketAccess.mayRead, the same rule as readSql).
  const [scope, rows] = await Promise.all([ticketAccess.scopeOf(ctx), loadTicketRows(ctx, 'ticket_by_id', TICKET_SELECT_WITH_SEQ, 'where t.id = ?', [id])]);
  const ticket = rows[0] ? ticketRecordAt(rows[0], 0) : null;
  if (!ticket || !ticketAccess.mayRead(scope, ticket)) throw AppError.notFound('Ticket');
  // Read through the rule just now: this request's timeline of it needs no second access check (its total is the counter read here).
  ticketAccess.readInThisRequest(ctx, ticket.id, Number(rows[0][TICKET_EVENT_SEQ]));
  return ticket;
}

/** The bytes of an image, for the tickets the caller may read only. */
export async function getTicketImageData(ctx: ServiceContext, rawImageId: unknown): Promise<{ mimeType: string; data: Buffer; ticketId: number }> {
  const id = parseId(rawImageId);
  const scope = await ticketAccess.scopeOf(ctx);
  const image = id ? await ctx.em.findOne(TicketImage, { id, ticket: ticketAccess.readFilter(scope) }, { populate: ['data'] }) : null;
  if (!image) throw AppError.notFound('Image');
  return { mimeType: image.mimeType, data: image.data, ticketId: image.ticket.id };
}
