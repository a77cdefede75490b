/**
 * Tickets: the dashboard's list (with the relations a page selects read in its one statement), a ticket, its image, and the ticket writes; each a thin call of services/tickets and its neighbours.
 */
import { Arg, Args, Ctx, FieldResolver, Info, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { getNamedType, isObjectType, type FieldNode, type GraphQLResolveInfo } from 'graphql';
// graphql's CommonJS file, statically: the copy `graphql` itself resolves to (esbuild inlines it once in the bundle;
// Node and the tests load the same file), so the schema's types pass its checks.
import { collectSubfields } from 'graphql/execution/collectFields.js';
import { GraphQLUpload, type FileUpload } from 'graphql-upload-minimal';
import { assignment, tickets, views } from '../services/index.js';
import { AppError } from '../errors.js';
import { MESSAGES } from '../validation/rules.js';
import type { TicketImageRecord, TicketRecord } from '../records/index.js';
import { requireViewer } from '../services/context.js';
import type { GraphQLContext } from './context.js';
import { TicketFilter, TicketInput } from './inputs.js';
import { readUpload } from './upload.js';
import { searchOfTicket } from './searchMatch.js';
import { imageUrl } from './urls.js';
import { PageArgs, TicketConnection, toConnection } from './connection.js';
import { TicketCondition } from './conditions.js';
import { Customer, Macro, Team, Ticket, TicketImage, TicketOrder, TicketStatus, User } from './types.js';

/**
 * The fields of `type` selected under `fieldNodes`, by field name (aliases and fragments resolved), by graphql-js's
 * own field collection (fragments, @skip/@include with this request's variables), the very one its executor runs:
 * what it returns is exactly what will be resolved.
 */
function selectedFields(info: GraphQLResolveInfo, fieldNodes: readonly FieldNode[], typeName: string): Map<string, FieldNode[]> {
  const byName = new Map<string, FieldNode[]>();
  const type = info.schema.getType(typeName);
  if (!isObjectType(type) || !fieldNodes.length) return byName;
  for (const nodes of collectSubfields(info.schema, info.fragments, info.variableValues, type, fieldNodes).values())
    byName.set(nodes[0].name.value, [...(byName.get(nodes[0].name.value) ?? []), ...nodes]);
  return byName;
}

/**
 * The requester, macro and assignee read with a page's tickets (TicketPage.relations), keyed by the very record
 * objects the page returned (a WeakMap: nothing outlives the request). The field resolvers below use them to
 * answer synchronously; graphql-js then completes each row without a promise per relation. A relation the query
 * did not select (selectedTicketRelations) is absent: its resolver loads it instead.
 */
const pageRelations = new WeakMap<TicketRecord, tickets.TicketRelations>();

/** Which relations of its tickets a `tickets` query selects: the page's statement reads only those. */
function selectedTicketRelations(info: GraphQLResolveInfo): tickets.PageRelations {
  const connection = getNamedType(info.returnType);
  const nodes = selectedFields(info, info.fieldNodes, connection.name).get('nodes') ?? [];
  const ticket = selectedFields(info, nodes, 'Ticket');
  return { requester: ticket.has('requester'), macro: ticket.has('macro'), assignee: ticket.has('assignee') };
}

@Resolver(() => Ticket)
export class TicketResolver {
  @Query(() => TicketConnection, { description: "The signed-in agent's tickets, filtered, searched and ordered, one page at a time." })
  async tickets(
    @Args(() => PageArgs) page: PageArgs,
    @Arg('filter', () => TicketFilter, { nullable: true, description: 'Search and filters; omitted: every ticket.' }) filter: TicketFilter | null,
    @Arg('orderBy', () => TicketOrder, {
      nullable: true,
      description: 'Default: RELEVANCE with a search, NEWEST without. A cursor is valid only with the filter and order it came from.',
    })
    orderBy: string | null,
    @Ctx() { service }: GraphQLContext,
    @Info() info: GraphQLResolveInfo,
    @Arg('viewId', () => Int, {
      nullable: true,
      description:
        "A view's tickets (see `views`): its scope and filter; a part `filter` sets replaces the view's. Without `filter`, totalCount is the view's count.",
    })
    viewId?: number | null,
    @Arg('where', () => TicketCondition, {
      nullable: true,
      description: 'A condition on the ticket fields (see `ticketFields`); with `filter`, both hold. Search combines with it.',
    })
    where?: TicketCondition | null,
  ) {
    // The page's statement also reads the requesters, macros and assignee the query selects (kept in pageRelations
    // for the field resolvers below); a relation it does not select is not joined.
    const args = { ...page, filter, orderBy, where, relations: selectedTicketRelations(info) };
    const result = viewId == null ? await tickets.listTickets(service, args) : await views.listViewTickets(service, viewId, args);
    result.nodes.forEach((node, i) => pageRelations.set(node, result.relations[i]));
    // Ticket.searchMatch (searchMatch.ts) reads the search each node was found by.
    if (filter?.search) for (const node of result.nodes) searchOfTicket.set(node, filter.search);
    const counts = result.statusCounts;
    return { ...toConnection(result), statusCounts: { open: counts.OPEN, pending: counts.PENDING, solved: counts.SOLVED } };
  }

  @Query(() => Ticket)
  ticket(@Arg('id', () => Int) id: number, @Ctx() { service }: GraphQLContext) {
    return tickets.getTicket(service, id);
  }

  @Mutation(() => Ticket, { description: 'Creates a ticket with its image, in one transaction.' })
  async createTicket(
    @Arg('input', () => TicketInput) input: TicketInput,
    @Arg('image', () => GraphQLUpload, { nullable: true, description: 'Required ("Image is Required"); PNG, JPEG, GIF or WebP, at most 5 MB.' })
    image: Promise<FileUpload> | null,
    @Ctx() { service }: GraphQLContext,
    @Arg('teamId', () => Int, { nullable: true, description: 'One of your teams (an admin: any). Omitted with assigneeId: no team, assigned to you.' })
    teamId?: number | null,
    @Arg('assigneeId', () => Int, {
      nullable: true,
      description: 'A member of the team (omitted with a team: unassigned); without a team only yourself.',
    })
    assigneeId?: number | null,
  ) {
    requireViewer(service);
    const upload = await readUpload(image);
    // This mutation's own rule: a ticket is created with its image. Refused with every other field error at once.
    if (upload == null) throw AppError.validation({ image: [MESSAGES.ticketImage], ...(await tickets.checkTicketInput(service, input)) });
    return tickets.createTicket(service, input, upload, { teamId, assigneeId });
  }

  @Mutation(() => Ticket, {
    description:
      'Gives a ticket to a team and/or an agent, if it still has expectedVersion (else CONFLICT with extensions.currentVersion and assigneeId). teamId null: no team (then an assignee is required); assigneeId null: unassigned in the team. The assignee must be a member of the team.',
  })
  assignTicket(
    @Arg('id', () => Int) id: number,
    @Arg('teamId', () => Int, { nullable: true }) teamId: number | null,
    @Arg('assigneeId', () => Int, { nullable: true }) assigneeId: number | null,
    @Arg('expectedVersion', () => Int, { description: 'The ticket version you saw.' }) expectedVersion: number,
    @Ctx() { service }: GraphQLContext,
  ) {
    return assignment.assignTicket(service, id, { teamId, assigneeId, expectedVersion });
  }

  @Mutation(() => Ticket, {
    description: 'Takes a ticket of one of your teams, if it still has expectedVersion (else CONFLICT with extensions.currentVersion and assigneeId).',
  })
  takeTicket(
    @Arg('id', () => Int) id: number,
    @Arg('expectedVersion', () => Int, { description: 'The ticket version you saw.' }) expectedVersion: number,
    @Ctx() { service }: GraphQLContext,
  ) {
    return assignment.takeTicket(service, id, expectedVersion);
  }

  @Mutation(() => Ticket, { description: 'Edits a ticket; without an image the old one stays.' })
  async updateTicket(
    @Arg('id', () => Int) id: number,
    @Arg('input', () => TicketInput) input: TicketInput,
    @Arg('image', () => GraphQLUpload, { nullable: true }) image: Promise<FileUpload> | null,
    @Ctx() { service }: GraphQLContext,
  ) {
    requireViewer(service);
    const upload = await readUpload(image);
    return tickets.updateTicket(service, id, input, upload);
  }

  @Mutation(() => Ticket, { description: 'Sets the status of one of your tickets (the one click on the ticket page); live in your other tabs.' })
  setTicketStatus(
    @Arg('id', () => Int, { description: 'One of your tickets.' }) id: number,
    @Arg('status', () => TicketStatus, { description: 'The new status.' }) status: string,
    @Ctx() { service }: GraphQLContext,
  ) {
    return tickets.setTicketStatus(service, id, status);
  }

  @Mutation(() => Int, { description: 'Deletes the ticket and its image; returns the id.' })
  deleteTicket(@Arg('id', () => Int) id: number, @Ctx() { service }: GraphQLContext) {
    return tickets.deleteTicket(service, id);
  }

  @FieldResolver(() => User, { nullable: true, description: 'The assigned agent; null for an unassigned ticket of a team.' })
  assignee(@Root() ticket: TicketRecord, @Ctx() { loaders }: GraphQLContext) {
    const id = ticket.assigneeId;
    if (id === null) return null;
    return pageRelations.get(ticket)?.assignee ?? loaders.user.load(id);
  }

  @FieldResolver(() => Team, { nullable: true, description: 'The team; null for a private ticket of its assignee.' })
  team(@Root() ticket: TicketRecord, @Ctx() { loaders }: GraphQLContext) {
    return ticket.teamId == null ? null : loaders.team.load(ticket.teamId);
  }

  @FieldResolver(() => Customer, { description: 'The requester.' })
  requester(@Root() ticket: TicketRecord, @Ctx() { loaders }: GraphQLContext) {
    return pageRelations.get(ticket)?.requester ?? loaders.customer.load(ticket.requesterId);
  }

  @FieldResolver(() => Macro, { description: 'The macro applied to the ticket; macro 1, "No Macro", when none was chosen.' })
  macro(@Root() ticket: TicketRecord, @Ctx() { loaders }: GraphQLContext) {
    return pageRelations.get(ticket)?.macro ?? loaders.macro.load(ticket.macroId);
  }
}

@Resolver(() => TicketImage)
export class TicketImageResolver {
  @FieldResolver(() => String, { description: 'Where the app serves the image (signed-in owner only).' })
  url(@Root() image: TicketImageRecord) {
    return imageUrl(image.id);
  }
}
