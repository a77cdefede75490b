/**
 * Mail not ticketed, for admins (services/notTicketedMail.ts, docs/email.md): the automatic mail the listener kept
 * without a ticket, with why, and turning one into a ticket by hand. Every rule is the service's.
 */
import { GraphQLDateTime } from 'graphql-scalars';
import { Arg, Args, ArgsType, Ctx, Field, FieldResolver, Int, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql';
import { notTicketedMail } from '../services/index.js';
import type { GraphQLContext } from './context.js';
import { connectionOf, PageArgs, toConnection } from './connection.js';
import { MailOriginal } from './incomingMail.js';
import { Ticket } from './types.js';

@ObjectType({ simpleResolvers: true, description: 'A mail the listener accepted and turned into no ticket (automatic mail outside a thread).' })
export class NotTicketedMail {
  @Field(() => Int, { description: 'The mail’s record: pass it to `ticketFromMail`.' })
  id!: number;
  @Field(() => GraphQLDateTime, { description: 'When the listener accepted it.' })
  receivedAt!: Date;
  @Field(() => String, { description: 'The sender’s address (From, else the envelope sender; empty for a bounce without either).' })
  fromEmail!: string;
  @Field(() => String, { description: 'Its subject, on one line.' })
  subject!: string;
  @Field(() => String, { description: 'Why it counts as automatic, e.g. `Precedence: list` or `Auto-Submitted: auto-replied`.' })
  reason!: string;
}

@ObjectType({ simpleResolvers: true, description: 'One page of the mail not ticketed, newest first.' })
export class NotTicketedMailConnection extends connectionOf(NotTicketedMail, 'mails') {}

@ArgsType()
export class NotTicketedMailArgs extends PageArgs {
  @Field(() => String, {
    nullable: true,
    description: 'Only mail whose sender or subject contains this text (case-insensitive; at most 200 characters; empty means all).',
  })
  search!: string | null;
}

@Resolver(() => NotTicketedMail)
export class NotTicketedMailResolver {
  @FieldResolver(() => MailOriginal, { description: 'Its whole text and sanitised HTML (ask for it one mail at a time).' })
  original(@Root() mail: notTicketedMail.NotTicketedMailRecord, @Ctx() { service }: GraphQLContext) {
    return notTicketedMail.notTicketedOriginal(service, mail.id);
  }

  @Query(() => NotTicketedMailConnection, {
    description: `Mail the listener kept without a ticket (loops, lists, our own), newest first, kept FULCRUM_MAIL_NOT_TICKETED_DAYS days (default ${notTicketedMail.DEFAULT_NOT_TICKETED_DAYS}). Admins only; others FORBIDDEN.`,
  })
  async notTicketedMail(@Args(() => NotTicketedMailArgs) args: NotTicketedMailArgs, @Ctx() { service }: GraphQLContext) {
    return toConnection(await notTicketedMail.listNotTicketedMail(service, args));
  }

  @Mutation(() => Ticket, {
    description:
      'Turns a mail not ticketed into a ticket, as the listener opens one for a person’s mail (its sender the requester); it leaves the list. Admins only; NOT_FOUND when it is not such a mail.',
  })
  ticketFromMail(@Arg('id', () => Int, { description: 'A mail of `notTicketedMail`.' }) id: number, @Ctx() { service }: GraphQLContext) {
    return notTicketedMail.ticketFromMail(service, id);
  }
}
