import { Arg, Args, Ctx, FieldResolver, Info, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import { getNamedType, isObjectType, type FieldNode, type GraphQLResolveInfo } from 'graphql';
// graphql's CommonJS file, statically: the copy `graphql` itself resolves to (esbuild inlines it once in the bundle;
// Node and the tests load the same file), so the schema's types pass its checks.
import { collectSubfields } from 'graphql/execution/collectFields.js';
import { GraphQLUpload, type FileUpload } from 'graphql-upload-minimal';
import { filter, pipe } from '@graphql-yoga/subscription';
import { assignment, auth, customers, macroRender, macros, messages, teams, ticketAccess, tickets, users, views } from '../services/index.js';
import { AppError } from '../errors.js';
import { MESSAGES } from '../validation/rules.js';
import type { CustomerRecord, MacroRecord, MessageRecord, TicketImageRecord, TicketRecord, UserRecord } from '../records/index.js';
import { requireViewer } from '../services/context.js';
import { reviveDates, type Change, type MessageChange, type TicketChange } from '../realtime/events.js';
import type { GraphQLContext } from './context.js';
import { CustomerInput, MacroInput, SignupInput, TicketFilter, TicketInput } from './inputs.js';
import { readUpload } from './upload.js';
import { searchOfTicket } from './searchMatch.js';
import { imageUrl } from './urls.js';
import { CustomerConnection, CustomerPageArgs, MacroConnection, PageArgs, TicketConnection, UserConnection, toConnection } from './connection.js';
import { MESSAGE_ARG_NAMES, withInputNames } from './inputNames.js';
import { TicketCondition } from './conditions.js';
import {
  ChangeKind,
  Customer,
  CustomerEvent,
  DeletedMacro,
  Macro,
  MacroEvent,
  Message,
  MessageEvent,
  Role,
  Team,
  Ticket,
  TicketEvent,
  TicketImage,
  TicketOrder,
  TicketStatus,
  User,
} from './types.js';

@Resolver()
export class AuthResolver {
  @Query(() => User, { nullable: true, description: 'The signed-in agent, or null when signed out.' })
  async me(@Ctx() { service }: GraphQLContext) {
    return service.viewerId == null ? null : users.currentUser(service);
  }

  // Nullable on purpose: a refused login is null beside its error instead of ending the document, so every
  // aliased login in one mutation runs, and counts against the rate limit, one by one.
  @Mutation(() => User, { nullable: true, description: 'Signs in; the session cookie is renewed. Null (with an error) when refused.' })
  login(@Arg('email', () => String) email: string, @Arg('password', () => String) password: string, @Ctx() { service }: GraphQLContext) {
    return auth.login(service, { email, password });
  }

  @Mutation(() => User, { description: 'Creates an account and signs in.' })
  signup(@Arg('input', () => SignupInput) input: SignupInput, @Ctx() { service }: GraphQLContext) {
    return auth.signup(service, input);
  }

  @Mutation(() => Boolean, { description: 'Ends the session server-side and closes its websockets.' })
  async logout(@Ctx() { service }: GraphQLContext) {
    await auth.logout(service);
    return true;
  }
}

@Resolver(() => User)
export class UserResolver {
  @Query(() => UserConnection, { description: 'The agents of this workspace, oldest account first, one page at a time.' })
  async users(@Args(() => PageArgs) page: PageArgs, @Ctx() { service }: GraphQLContext) {
    return toConnection(await users.listUsersPage(service, page));
  }

  @FieldResolver(() => Role, { description: 'ADMIN or AGENT.' })
  async role(@Root() user: UserRecord, @Ctx() { loaders }: GraphQLContext) {
    return user.role ?? (await loaders.user.load(user.id))?.role ?? 'AGENT';
  }

  @Mutation(() => User, { description: "Admins only: sets an agent's role (the last admin cannot be demoted). Takes effect at the agent's next request." })
  setUserRole(@Arg('userId', () => Int) userId: number, @Arg('role', () => Role) role: string, @Ctx() { service }: GraphQLContext) {
    return teams.setUserRole(service, userId, role);
  }
}

@Resolver(() => Team)
export class TeamResolver {
  @Query(() => [Team], { description: 'Your teams, by name (an admin: every team).' })
  teams(@Ctx() { service }: GraphQLContext) {
    return teams.listTeams(service);
  }

  @Mutation(() => Team, { description: 'Admins only: creates a team (a name of 1 to 50 characters, unique).' })
  createTeam(@Arg('name', () => String) name: string, @Ctx() { service }: GraphQLContext) {
    return teams.createTeam(service, name);
  }

  @Mutation(() => Team, { description: 'Admins only: adds an agent to a team (no change when already a member).' })
  addTeamMember(@Arg('teamId', () => Int) teamId: number, @Arg('userId', () => Int) userId: number, @Ctx() { service }: GraphQLContext) {
    return teams.addTeamMember(service, teamId, userId);
  }

  @Mutation(() => Team, {
    description: "Admins only: turns the team's auto-assignment on or off (new unassigned tickets of the team go to the least-loaded member online).",
  })
  setTeamAutoAssign(@Arg('teamId', () => Int) teamId: number, @Arg('enabled', () => Boolean) enabled: boolean, @Ctx() { service }: GraphQLContext) {
    return teams.setTeamAutoAssign(service, teamId, enabled);
  }

  @Mutation(() => Team, { description: 'Admins only: removes an agent from a team; their tickets of the team stay in it, unassigned.' })
  removeTeamMember(@Arg('teamId', () => Int) teamId: number, @Arg('userId', () => Int) userId: number, @Ctx() { service }: GraphQLContext) {
    return teams.removeTeamMember(service, teamId, userId);
  }
}

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

@Resolver(() => Customer)
export class CustomerResolver {
  @Query(() => CustomerConnection, { description: 'The shared customer directory, newest first, one page at a time; `search` narrows it by name or email.' })
  async customers(@Args(() => CustomerPageArgs) page: CustomerPageArgs, @Ctx() { service }: GraphQLContext) {
    return toConnection(await customers.listCustomersPage(service, page));
  }

  @Query(() => Customer)
  customer(@Arg('id', () => Int) id: number, @Ctx() { service }: GraphQLContext) {
    return customers.getCustomer(service, id);
  }

  @Query(() => Boolean, { description: 'True when no customer has this email yet (checked before creating one).' })
  customerEmailAvailable(
    @Arg('email', () => String) email: string,
    @Arg('name', () => String, { nullable: true }) name: string | null,
    @Ctx() { service }: GraphQLContext,
  ) {
    return customers.isCustomerEmailAvailable(service, email, name);
  }

  @Mutation(() => Customer)
  createCustomer(@Arg('input', () => CustomerInput) input: CustomerInput, @Ctx() { service }: GraphQLContext) {
    return customers.createCustomer(service, input);
  }

  @Mutation(() => Customer, { description: 'Owner only.' })
  updateCustomer(@Arg('id', () => Int) id: number, @Arg('input', () => CustomerInput) input: CustomerInput, @Ctx() { service }: GraphQLContext) {
    return customers.updateCustomer(service, id, input);
  }

  @Mutation(() => Int, { description: 'Owner only; refused while the customer is the requester of any ticket.' })
  deleteCustomer(@Arg('id', () => Int) id: number, @Ctx() { service }: GraphQLContext) {
    return customers.deleteCustomer(service, id);
  }

  @FieldResolver(() => User)
  owner(@Root() customer: CustomerRecord, @Ctx() { loaders }: GraphQLContext) {
    return loaders.user.load(customer.ownerId);
  }
}

@Resolver(() => Macro)
export class MacroResolver {
  @Query(() => MacroConnection, {
    description:
      'Your macros and the built-in macro 1, newest first, one page at a time; with `includeShared` also the macros shared with your teams and with everyone.',
  })
  async macros(
    @Args(() => PageArgs) page: PageArgs,
    @Arg('includeShared', () => Boolean, {
      nullable: true,
      defaultValue: false,
      description: 'Also the TEAM macros of your teams and the EVERYONE macros (the macros you may apply where replies are written).',
    })
    includeShared: boolean | null,
    @Ctx() { service }: GraphQLContext,
  ) {
    return toConnection(await macros.listMacrosPage(service, page, includeShared === true));
  }

  @Query(() => String, {
    description:
      "A macro's text filled in for a ticket: {{requester.name}}, {{ticket.id}}, {{agent.name}} (you) and {{ticket.link}} (the requester page's address) are replaced by plain text; any other {{…}} (sections, partials, unknown names) is kept exactly as typed. The macro must be one you may use and the ticket one you may read (NOT_FOUND otherwise).",
  })
  renderMacro(
    @Arg('macroId', () => Int, { description: 'A macro you may use (yours, macro 1, or one shared with you).' }) macroId: number,
    @Arg('ticketId', () => Int, { description: 'A ticket you may read.' }) ticketId: number,
    @Ctx() { service }: GraphQLContext,
  ) {
    return macroRender.renderMacro(service, macroId, ticketId);
  }

  @FieldResolver(() => Team, { nullable: true, description: 'The team a TEAM macro is shared with; null otherwise.' })
  team(@Root() macro: MacroRecord, @Ctx() { loaders }: GraphQLContext) {
    return macro.teamId == null ? null : loaders.team.load(macro.teamId);
  }

  @Query(() => Macro)
  macro(@Arg('id', () => Int) id: number, @Ctx() { service }: GraphQLContext) {
    return macros.getMacro(service, id);
  }

  @Mutation(() => Macro)
  createMacro(@Arg('input', () => MacroInput) input: MacroInput, @Ctx() { service }: GraphQLContext) {
    return macros.createMacro(service, input);
  }

  @Mutation(() => Macro, { description: 'Macro 1 is permanent.' })
  updateMacro(@Arg('id', () => Int) id: number, @Arg('input', () => MacroInput) input: MacroInput, @Ctx() { service }: GraphQLContext) {
    return macros.updateMacro(service, id, input);
  }

  @Mutation(() => DeletedMacro, { description: 'Macro 1 is permanent; tickets that used the macro fall back to macro 1.' })
  deleteMacro(@Arg('id', () => Int) id: number, @Ctx() { service }: GraphQLContext) {
    return macros.deleteMacro(service, id);
  }

  @FieldResolver(() => User, { nullable: true })
  owner(@Root() macro: MacroRecord, @Ctx() { loaders }: GraphQLContext) {
    return macro.ownerId == null ? null : loaders.user.load(macro.ownerId);
  }
}

@Resolver(() => Message)
export class MessageResolver {
  // The `messages` query (one conversation, a cursor connection) is in conversations.ts with the rest of the message center.
  @Mutation(() => Message)
  sendMessage(@Arg('receiverId', () => Int) receiverId: number, @Arg('text', () => String) text: string, @Ctx() { service }: GraphQLContext) {
    return withInputNames(MESSAGE_ARG_NAMES, () => messages.sendMessage(service, receiverId, text));
  }

  @Mutation(() => Message, { description: 'Sender only.' })
  editMessage(@Arg('id', () => Int) id: number, @Arg('text', () => String) text: string, @Ctx() { service }: GraphQLContext) {
    return withInputNames(MESSAGE_ARG_NAMES, () => messages.editMessage(service, id, text));
  }

  @Mutation(() => Int, { description: 'Sender only; returns the id.' })
  deleteMessage(@Arg('id', () => Int) id: number, @Ctx() { service }: GraphQLContext) {
    return messages.deleteMessage(service, id);
  }

  @FieldResolver(() => User)
  sender(@Root() message: MessageRecord, @Ctx() { loaders }: GraphQLContext) {
    return loaders.user.load(message.senderId);
  }

  @FieldResolver(() => User)
  receiver(@Root() message: MessageRecord, @Ctx() { loaders }: GraphQLContext) {
    return loaders.user.load(message.receiverId);
  }
}

/**
 * Each subscription listens on the caller's own topic only, and every event is checked again against the
 * caller before it is sent (defence in depth: a wrong publish can never leak).
 */
@Resolver()
export class LiveResolver {
  @Subscription(() => MessageEvent, {
    description: 'Messages sent, edited or deleted in your conversations.',
    subscribe: ({ context }) => {
      const viewerId = requireViewer((context as GraphQLContext).service);
      return pipe(
        (context as GraphQLContext).service.deps.bus.subscribe('message', viewerId),
        filter((change: MessageChange) => change.senderId === viewerId || change.receiverId === viewerId),
      );
    },
  })
  messageEvents(@Root() change: MessageChange): MessageEvent {
    return {
      kind: change.kind as ChangeKind,
      id: change.id,
      senderId: change.senderId,
      receiverId: change.receiverId,
      message: change.record ? reviveDates(change.record) : null,
    };
  }

  @Subscription(() => TicketEvent, {
    description: 'Your tickets created, edited or deleted, by any client.',
    subscribe: ({ context }) => {
      const viewerId = requireViewer((context as GraphQLContext).service);
      return ticketAccess.subscribe((context as GraphQLContext).service.deps.bus, viewerId);
    },
  })
  async ticketEvents(@Root() change: TicketChange, @Ctx() { service }: GraphQLContext): Promise<TicketEvent> {
    const previous = change.previous ?? null;
    if (change.kind === 'DELETED') return { kind: ChangeKind.DELETED, id: change.id, ticket: null, previous, current: null };
    // Re-read through the service, which checks access again (the viewer's role and teams as they are now: each
    // delivered event has a context of its own, gateway/src/graphql/websockets.ts) and fills in what the event left out.
    service.em.clear();
    const ticket = await tickets.getTicket(service, change.id).catch(() => null);
    const record = change.record;
    const current = record ? { status: record.status, priority: record.priority, type: record.type, requesterId: record.requesterId } : null;
    // Gone since (deleted meanwhile): sent as the delete. It takes away what the client counted so far: the facets
    // before this update, or nothing for a ticket created and deleted before the client ever saw it. (The client
    // applies one delete per ticket, so the real DELETED event that follows changes nothing more.)
    if (!ticket) return { kind: ChangeKind.DELETED, id: change.id, ticket: null, previous: change.kind === 'UPDATED' ? previous : null, current: null };
    return { kind: change.kind as ChangeKind, id: change.id, ticket: ticket, previous: change.kind === 'UPDATED' ? previous : null, current };
  }

  @Subscription(() => CustomerEvent, {
    description: 'The shared customer directory changed.',
    subscribe: ({ context }) => {
      requireViewer((context as GraphQLContext).service);
      return (context as GraphQLContext).service.deps.bus.subscribe('customer');
    },
  })
  customerEvents(@Root() change: Change<CustomerRecord>): CustomerEvent {
    return { kind: change.kind as ChangeKind, id: change.id, customer: change.record ? reviveDates(change.record) : null };
  }

  @Subscription(() => MacroEvent, {
    description: 'Your macros created, edited or deleted.',
    subscribe: ({ context }) => {
      const viewerId = requireViewer((context as GraphQLContext).service);
      return pipe(
        (context as GraphQLContext).service.deps.bus.subscribe('macro', viewerId),
        filter((change: Change<MacroRecord>) => !change.record || change.record.ownerId === viewerId),
      );
    },
  })
  macroEvents(@Root() change: Change<MacroRecord>): MacroEvent {
    return { kind: change.kind as ChangeKind, id: change.id, macro: change.record ? reviveDates(change.record) : null };
  }
}

export const RESOLVERS = [
  AuthResolver,
  UserResolver,
  TeamResolver,
  TicketResolver,
  TicketImageResolver,
  CustomerResolver,
  MacroResolver,
  MessageResolver,
  LiveResolver,
] as const;
