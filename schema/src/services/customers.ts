import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { AppError } from '../errors.js';
import { Customer, Ticket, User } from '../entities/index.js';
import { LIMITS, MESSAGES, hasErrors, hasNul, validateCustomer, type CustomerFields } from '../validation/rules.js';
import { parseId, requireViewer, type ServiceContext } from './context.js';
import { keysetPage, type Page, type PageArgs } from './connection.js';
import { toDate, type CustomerRecord } from '../records/index.js';
import { customerData, flushWithEvents, ticketEventOnly, webhookEvent, type ChangeDraft } from './changeLog.js';
import { redrawLinks } from './requesterLinks.js';
import * as ticketAccess from './ticketAccess.js';

export function toCustomerRecord(c: Customer): CustomerRecord {
  return { id: c.id, name: c.name, email: c.email, ownerId: c.owner.id, createdAt: c.createdAt };
}

function normalize(input: CustomerFields): { name: string; email: string } {
  return { name: String(input.name).trim(), email: String(input.email).trim().toLowerCase() };
}

function validated(input: CustomerFields): { name: string; email: string } {
  const fields = validateCustomer({ name: typeof input.name === 'string' ? input.name.trim() : input.name, email: input.email });
  if (hasErrors(fields)) throw AppError.validation(fields);
  return normalize(input);
}

const emailTaken = () => new AppError('CONFLICT', MESSAGES.customerUnique, { fields: { email: [MESSAGES.customerUnique] } });

interface CustomerRow {
  id: number;
  name: string;
  email: string;
  owner_id: number;
  created_at: unknown;
}

/** `%`, `_` and the escape character itself match literally in a search. */
export function likeContaining(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** A search text: trimmed, at most LIMITS.search.max characters; empty means no filter. */
export function searchText(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  if (typeof raw !== 'string' || raw.length > LIMITS.search.max || hasNul(raw)) throw AppError.validation({ search: [MESSAGES.searchLength] });
  return raw.trim() || null;
}

/**
 * One page of the shared directory, newest first; `search` keeps the customers whose name or email contains it
 * (case-insensitive; `totalCount` counts the matches). One keyset read and one count (connection.ts).
 */
export async function listCustomersPage(ctx: ServiceContext, args: PageArgs & { search?: string | null } = {}): Promise<Page<CustomerRecord>> {
  requireViewer(ctx);
  const search = searchText(args.search);
  const knex = ctx.em.getKnex();
  return keysetPage<CustomerRow, CustomerRecord>(
    ctx,
    {
      kind: 'customer',
      idColumn: 'id',
      order: 'desc',
      query: () => {
        const qb = knex.from('customers').select('id', 'name', 'email', 'owner_id', 'created_at');
        if (search) {
          const pattern = likeContaining(search);
          qb.where((w) => {
            w.whereRaw("lower(name) like lower(?) escape '\\'", [pattern]).orWhereRaw("lower(email) like lower(?) escape '\\'", [pattern]);
          });
        }
        return qb;
      },
      toRecord: (r) => ({ id: Number(r.id), name: r.name, email: r.email, ownerId: Number(r.owner_id), createdAt: toDate(r.created_at) }),
    },
    args,
  );
}

/** The shared directory: every agent sees every customer, newest first (the REST list, a bare array). */
export async function listCustomers(ctx: ServiceContext): Promise<CustomerRecord[]> {
  requireViewer(ctx);
  const customers = await ctx.em.find(Customer, {}, { orderBy: { id: 'desc' } });
  return customers.map(toCustomerRecord);
}

export async function getCustomer(ctx: ServiceContext, rawId: unknown): Promise<CustomerRecord> {
  requireViewer(ctx);
  return toCustomerRecord(await findCustomer(ctx, rawId));
}

async function findCustomer(ctx: ServiceContext, rawId: unknown): Promise<Customer> {
  const id = parseId(rawId);
  const customer = id ? await ctx.em.findOne(Customer, id) : null;
  if (!customer) throw AppError.notFound('Customer');
  return customer;
}

async function findOwnCustomer(ctx: ServiceContext, rawId: unknown): Promise<Customer> {
  const viewerId = requireViewer(ctx);
  const customer = await findCustomer(ctx, rawId);
  if (customer.owner.id !== viewerId) throw AppError.forbidden();
  return customer;
}

export async function customersByIds(ctx: ServiceContext, ids: readonly number[]): Promise<Map<number, CustomerRecord>> {
  const customers = await ctx.em.find(Customer, { id: { $in: [...ids] } });
  return new Map(customers.map((c) => [c.id, toCustomerRecord(c)]));
}

/**
 * The create form's uniqueness check. The spec sends name and email, but only the email is unique: two
 * customers may share a name. True when a customer may be created with this email.
 */
export async function isCustomerEmailAvailable(ctx: ServiceContext, email: unknown, _name?: unknown): Promise<boolean> {
  requireViewer(ctx);
  if (typeof email !== 'string') return false;
  // No stored email can hold NUL (the rules refuse it), and the database would choke on the lookup.
  if (hasNul(email)) return true;
  const count = await ctx.em.count(Customer, { email: email.trim().toLowerCase() });
  return count === 0;
}

async function flushUnique(
  ctx: ServiceContext,
  events: () => ChangeDraft | ChangeDraft[],
  publish: () => void,
  afterFlush?: () => Promise<void>,
): Promise<void> {
  try {
    await flushWithEvents(ctx, events, publish, afterFlush && (() => afterFlush()));
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) throw emailTaken();
    throw error;
  }
}

export async function createCustomer(ctx: ServiceContext, input: CustomerFields): Promise<CustomerRecord> {
  const viewerId = requireViewer(ctx);
  const data = validated(input);
  if ((await ctx.em.count(Customer, { email: data.email })) > 0) throw emailTaken();
  const customer = ctx.em.create(Customer, { ...data, owner: ctx.em.getReference(User, viewerId), createdAt: new Date() });
  let record!: CustomerRecord;
  await flushUnique(
    ctx,
    () => webhookEvent.customer('CREATED', customer),
    () => ctx.deps.bus.publish('customer', { kind: 'CREATED', id: customer.id, record: (record = toCustomerRecord(customer)) }),
  );
  return record;
}

/**
 * The customer's tickets when the caller may read every one of them (decided on the caller's full scope, their
 * teams and role, on every door: services/ticketAccess.ts); FORBIDDEN otherwise. Changing a customer's email
 * redirects the mail of each of their tickets (replies and the requester link go to the new address), so only an
 * agent who may read every such ticket, or an admin, may change it.
 */
async function ticketsReadableInFull(ctx: ServiceContext, customerId: number): Promise<{ id: number; assignee_id: unknown; team_id: unknown }[]> {
  const viewerId = requireViewer(ctx);
  // The full scope whatever the door (the REST facade's own scope is the spec's narrower rule for its ticket lists).
  const scope = (await ticketAccess.scopesOf(ctx.em, [viewerId])).get(viewerId);
  if (!scope) throw AppError.forbidden();
  const access = ticketAccess.readSql(scope);
  const rows = await ctx.em
    .getConnection()
    .execute<{ id: number | string; assignee_id: unknown; team_id: unknown; readable: number | boolean | string }[]>(
      `select t.id, t.assignee_id, t.team_id, case when ${access.sql} then 1 else 0 end as readable from tickets t where t.requester_id = ? order by t.id`,
      [...access.bindings, customerId],
    );
  if (rows.some((r) => Number(r.readable) !== 1)) throw AppError.forbidden();
  return rows.map((r) => ({ id: Number(r.id), assignee_id: r.assignee_id, team_id: r.team_id }));
}

/**
 * Edits a customer the caller owns. A change of email is also each of their tickets' change: only a caller who may
 * read all of them may make it (ticketsReadableInFull), and in the same transaction every ticket gets an UPDATED
 * entry (`requester.email`, old → new) in its timeline and history and its requester link is drawn anew (the old
 * address's link finds nothing: services/requesterLinks.ts).
 */
export async function updateCustomer(ctx: ServiceContext, rawId: unknown, input: CustomerFields): Promise<CustomerRecord> {
  const customer = await findOwnCustomer(ctx, rawId);
  const data = validated(input);
  const emailChanges = data.email !== customer.email;
  if (emailChanges && (await ctx.em.count(Customer, { email: data.email, id: { $ne: customer.id } })) > 0) throw emailTaken();
  const tickets = emailChanges ? await ticketsReadableInFull(ctx, customer.id) : [];
  const before = customerData(customer);
  ctx.em.assign(customer, data);
  let record!: CustomerRecord;
  const change = { field: 'requester.email', from: String(before.email), to: data.email };
  await flushUnique(
    ctx,
    () => [
      webhookEvent.customer('UPDATED', customer, before),
      ...tickets.map((t) =>
        ticketEventOnly({
          ticketId: t.id,
          kind: 'UPDATED',
          changes: [change],
          assigneeId: ticketAccess.audienceOwner({ assigneeId: t.assignee_id }),
          teamId: ticketAccess.audienceTeam({ teamId: t.team_id }),
        }),
      ),
    ],
    () => ctx.deps.bus.publish('customer', { kind: 'UPDATED', id: customer.id, record: (record = toCustomerRecord(customer)) }),
    tickets.length
      ? () =>
          redrawLinks(
            ctx,
            ctx.em,
            tickets.map((t) => t.id),
            false,
          )
      : undefined,
  );
  return record;
}

/**
 * A customer who is still the requester of tickets is not deleted: those tickets would lose their requester.
 * The owner is told only that tickets name them: some may be other agents', whose number is not theirs to learn.
 */
export async function deleteCustomer(ctx: ServiceContext, rawId: unknown): Promise<number> {
  const customer = await findOwnCustomer(ctx, rawId);
  if ((await ctx.em.count(Ticket, { requester: customer.id })) > 0) {
    throw new AppError('CONFLICT', MESSAGES.customerInUse, { fields: { customer: [MESSAGES.customerInUse] } });
  }
  const id = customer.id;
  const event = webhookEvent.customer('DELETED', customer);
  ctx.em.remove(customer);
  await flushWithEvents(
    ctx,
    () => event,
    () => ctx.deps.bus.publish('customer', { kind: 'DELETED', id }),
  );
  return id;
}
