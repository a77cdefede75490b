/**
 * `Ticket.searchMatch`: where a `tickets(filter: { search })` result matched, with a snippet (services/searchMatch.ts).
 * The search of the list that returned a ticket is kept with its record for the request (`searchOfTicket`); a ticket
 * read any other way has no match (null).
 */
import { Ctx, Extensions, Field, FieldResolver, Int, ObjectType, Resolver, Root, registerEnumType } from 'type-graphql';
import { MAX_HIGHLIGHTS, SEARCH_MATCH_IN, firstMatch } from '../services/searchMatch.js';
import DataLoader from 'dataloader';
import { conversationTexts, type ConversationText } from '../services/conversationSearch.js';
import type { TicketRecord } from '../records/index.js';
import type { GraphQLContext } from './context.js';
import { subjectOf } from './ticketSubject.js';
import { Ticket } from './types.js';

/** The search text of the list each ticket record came from (set by the `tickets` query). */
export const searchOfTicket = new WeakMap<object, string>();

/** Per request: the conversation texts of the page's tickets whose own texts do not match, in one statement. */
const conversations = new WeakMap<GraphQLContext, DataLoader<number, ConversationText[]>>();
function conversationOf(context: GraphQLContext, ticketId: number): Promise<ConversationText[]> {
  let loader = conversations.get(context);
  if (!loader) {
    loader = new DataLoader(async (ids) => {
      const found = await conversationTexts(context.service, ids);
      return ids.map((id) => found.get(id) ?? []);
    });
    conversations.set(context, loader);
  }
  return loader.load(ticketId);
}

export const SearchMatchIn = Object.fromEntries(SEARCH_MATCH_IN.map((s) => [s, s])) as { [K in (typeof SEARCH_MATCH_IN)[number]]: K };
registerEnumType(SearchMatchIn, {
  name: 'SearchMatchIn',
  description: 'Where a search matched a ticket.',
  valuesConfig: {
    SUBJECT: { description: "The ticket's whole subject (a mailed ticket's)." },
    TITLE: { description: 'The title.' },
    DESCRIPTION: { description: 'The description.' },
    REQUESTER: { description: "The requester's name or email." },
    REPLY: { description: "An agent's reply to the requester." },
    NOTE: { description: 'An internal note (agents only).' },
    REQUESTER_MESSAGE: { description: "A requester's message, by mail or from their page." },
    ATTACHMENT: { description: "An attachment's file name." },
  },
});

@ObjectType({ simpleResolvers: true, description: 'A matching word in a snippet: its place in `SearchMatch.snippet`.' })
export class SearchHighlight {
  @Field(() => Int, { description: 'Where it starts in the snippet, in UTF-16 code units (a JavaScript string index).' })
  start!: number;
  @Field(() => Int, { description: 'Its length, in UTF-16 code units.' })
  length!: number;
}

@ObjectType({ simpleResolvers: true, description: 'Where a search matched a ticket, with a short snippet of the text around the match.' })
export class SearchMatch {
  @Field(() => SearchMatchIn, { description: 'The text that matched.' })
  in!: string;
  @Field(() => String, {
    description:
      'Plain text (never HTML, no markers) of about 100 characters around the first match, "…" where it is cut; render it as text and the `highlights` ranges highlighted.',
  })
  snippet!: string;
  @Extensions({ maxItems: MAX_HIGHLIGHTS })
  @Field(() => [SearchHighlight], { description: `The matching words in \`snippet\`, in order, as ranges (at most ${MAX_HIGHLIGHTS}).` })
  highlights!: SearchHighlight[];
}

@Resolver(() => Ticket)
export class TicketSearchMatchResolver {
  @FieldResolver(() => SearchMatch, {
    nullable: true,
    description:
      'Where the search of `tickets(filter: { search })` matched this ticket (its own texts first, then its replies, notes, requester messages and attachment names), with a snippet; null without a search (or for a match by `#id`).',
  })
  async searchMatch(@Root() ticket: TicketRecord, @Ctx() context: GraphQLContext) {
    const search = searchOfTicket.get(ticket);
    if (!search) return null;
    const [subject, requester] = await Promise.all([subjectOf(context, ticket), context.loaders.customer.load(ticket.requesterId)]);
    // The ticket's own texts first; its conversation (replies, notes, requester messages, attachment names) only
    // when none of them matches.
    const own = firstMatch(search, [
      ['SUBJECT', subject === ticket.title ? null : subject],
      ['TITLE', ticket.title],
      ['DESCRIPTION', ticket.description],
      ['REQUESTER', requester ? `${requester.name} <${requester.email}>` : null],
    ]);
    return own ?? firstMatch(search, await conversationOf(context, ticket.id));
  }
}
