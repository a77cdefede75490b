/**
 * `Ticket.subject`: a mail's whole subject as it came (up to 998 characters), the title for any other ticket. Read per
 * request for a whole page in one statement (a batch loader kept with the request's service context); the tickets are
 * ones the request has already read under the access rule.
 */
import DataLoader from 'dataloader';
import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { ServiceContext } from '../services/context.js';
import type { TicketRecord } from '../records/index.js';
import type { GraphQLContext } from './context.js';
import { Ticket } from './types.js';

const subjects = new WeakMap<ServiceContext, DataLoader<number, string | null>>();

function subjectLoader(service: ServiceContext): DataLoader<number, string | null> {
  let loader = subjects.get(service);
  if (!loader)
    subjects.set(
      service,
      (loader = new DataLoader<number, string | null>(async (ids) => {
        const rows = await service.em
          .getConnection()
          .execute<{ id: number | string; subject: string | null }[]>(`select id, subject from tickets where id in (${ids.map(() => '?').join(', ')})`, [
            ...ids,
          ]);
        const found = new Map(rows.map((r) => [Number(r.id), r.subject]));
        return ids.map((id) => found.get(id) ?? null);
      })),
    );
  return loader;
}

/** The ticket's subject (the title when it has none of its own), through the request's batch loader. */
export async function subjectOf({ service }: GraphQLContext, ticket: TicketRecord): Promise<string> {
  return (await subjectLoader(service).load(ticket.id)) ?? ticket.title;
}

@Resolver(() => Ticket)
export class TicketSubjectResolver {
  @FieldResolver(() => String, {
    description:
      "The ticket's whole subject, the heading of its page: for a ticket that came by mail the mail's subject as it came (up to 998 characters; editing the title leaves it), for any other the title.",
  })
  subject(@Root() ticket: TicketRecord, @Ctx() context: GraphQLContext): Promise<string> {
    return subjectOf(context, ticket);
  }
}
