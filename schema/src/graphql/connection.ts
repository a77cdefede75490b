import { ArgsType, Field, Int, ObjectType, type ClassType } from 'type-graphql';
import { PAGE_SIZE } from '../validation/rules.js';
import type { Page } from '../services/connection.js';
import { Customer, Macro, Ticket, TicketStatusCounts, User } from './types.js';

/** The arguments of every list: `first` records `after` a cursor. The service checks both (connection.ts). */
@ArgsType()
export class PageArgs {
  @Field(() => Int, {
    nullable: true,
    defaultValue: PAGE_SIZE.default,
    description: `How many records to return, from ${PAGE_SIZE.min} to ${PAGE_SIZE.max} (default ${PAGE_SIZE.default}). Any other value is refused before the operation runs, with BAD_USER_INPUT on \`first\`.`,
  })
  first!: number | null;

  @Field(() => String, {
    nullable: true,
    description:
      'Start after this cursor: the `pageInfo.endCursor` of the previous page of the same list (with the same filter and order). Absent, null or empty starts at the beginning. A cursor of another list, or one that was altered, is refused with BAD_USER_INPUT on `after`.',
  })
  after!: string | null;
}

@ArgsType()
export class CustomerPageArgs extends PageArgs {
  @Field(() => String, {
    nullable: true,
    description:
      'Only customers whose name or email contains this text (case-insensitive; at most 200 characters; empty means everyone). `totalCount` then counts the matches.',
  })
  search!: string | null;
}

@ObjectType({ simpleResolvers: true, description: 'Where a page ends, and whether another follows. Pass `endCursor` as `after` to read the next page.' })
export class PageInfo {
  @Field(() => String, { nullable: true, description: "The last record's cursor, for the next page's `after`; null when the page is empty." })
  endCursor!: string | null;

  @Field(() => Boolean, { description: 'True when more records follow this page.' })
  hasNextPage!: boolean;
}

/** The fields every connection has; each list names its own type (`TicketConnection`, ...). */
export function connectionOf<TNode extends object>(node: ClassType<TNode>, plural: string) {
  @ObjectType({ simpleResolvers: true })
  abstract class Connection {
    @Field(() => Int, { description: `How many ${plural} the whole list holds (after any filter), not just this page.` })
    totalCount!: number;

    @Field(() => [node], { description: `This page's ${plural}, in the list's order.` })
    nodes!: TNode[];

    @Field(() => PageInfo, { description: 'Where this page ends, and whether another follows.' })
    pageInfo!: PageInfo;
  }
  return Connection;
}

@ObjectType({ simpleResolvers: true, description: "One page of the signed-in agent's tickets, in the requested order." })
export class TicketConnection extends connectionOf(Ticket, 'tickets') {
  @Field(() => TicketStatusCounts, {
    description:
      'Per status, how many tickets match the rest of the filter (search, priority, type, requester), whatever its status part: the counts to show beside each status filter.',
  })
  statusCounts!: TicketStatusCounts;
}

@ObjectType({ simpleResolvers: true, description: 'One page of the shared customer directory, newest first.' })
export class CustomerConnection extends connectionOf(Customer, 'customers') {}

@ObjectType({ simpleResolvers: true, description: 'One page of the macros the signed-in agent may use (their own and macro 1), newest first.' })
export class MacroConnection extends connectionOf(Macro, 'macros') {}

@ObjectType({ simpleResolvers: true, description: 'One page of the agents, oldest account first.' })
export class UserConnection extends connectionOf(User, 'agents') {}

/** A service page as a connection object. */
export function toConnection<T>(page: Page<T>) {
  return { totalCount: page.totalCount, nodes: page.nodes, pageInfo: { endCursor: page.endCursor, hasNextPage: page.hasNextPage } };
}
