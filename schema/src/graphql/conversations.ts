/**
 * The message center's GraphQL: conversations with server-side read state, one conversation's messages
 * as a cursor connection, presence and typing. Thin: every rule is in services/conversations.ts and messages.ts.
 */
import {
  Arg,
  Args,
  Ctx,
  Extensions,
  Field,
  FieldResolver,
  Int,
  Mutation,
  ObjectType,
  Query,
  registerEnumType,
  Resolver,
  Root,
  Subscription,
} from 'type-graphql';
import { GraphQLDateTime } from 'graphql-scalars';
import { filter, pipe } from '@graphql-yoga/subscription';
import { conversations, messages } from '../services/index.js';
import { requireViewer, type ServiceContext } from '../services/context.js';
import type { ConversationRecord } from '../services/conversations.js';
import type { TypingSignal, UnreadChange } from '../realtime/events.js';
import type { UserRecord } from '../records/index.js';
import type { GraphQLContext } from './context.js';
import { Message, User } from './types.js';
import { PageArgs, PageInfo, toConnection } from './connection.js';

export enum UnreadChangeReason {
  MESSAGE_ARRIVED = 'MESSAGE_ARRIVED',
  MESSAGE_DELETED = 'MESSAGE_DELETED',
  READ = 'READ',
}
registerEnumType(UnreadChangeReason, {
  name: 'UnreadChangeReason',
  description: 'Why unread counts changed.',
  valuesConfig: {
    MESSAGE_ARRIVED: { description: 'A message to you arrived.' },
    MESSAGE_DELETED: { description: 'Its sender deleted a message to you that you had not read.' },
    READ: { description: 'You read a conversation (perhaps on another device or tab).' },
  },
});

@ObjectType({ description: 'Your side of a conversation with one other agent: its newest message and what you have not read. Clients key it by `partnerId`.' })
export class Conversation {
  @Field(() => Int, { description: 'The other agent of the conversation (your partner).' }) partnerId!: number;
  @Field(() => Message, { nullable: true, description: 'The newest message between you, in either direction; null when there is none.' })
  lastMessage!: Message | null;
  @Field(() => Int, { description: 'Messages from the partner you have not read (those past `lastReadMessageId`).' }) unreadCount!: number;
  @Field(() => Int, { description: 'Your read position: the id of the last message from the partner you have read (0 before any).' })
  lastReadMessageId!: number;
}

@ObjectType({ description: 'One page of your conversations, newest activity (newest message) first.' })
export class ConversationConnection {
  @Field(() => Int, { description: 'How many conversations you have, not just this page.' }) totalCount!: number;
  @Field(() => [Conversation], { description: 'The conversations of this page.' }) nodes!: Conversation[];
  @Field(() => PageInfo, { description: 'Pass `endCursor` as `after` for the next page.' }) pageInfo!: PageInfo;
}

@ObjectType({ description: 'One page of a conversation, newest message first.' })
export class MessageConnection {
  @Field(() => Int, { description: 'All messages of the conversation, not just this page.' }) totalCount!: number;
  @Field(() => [Message], { description: 'The messages of this page, newest first.' }) nodes!: Message[];
  @Field(() => PageInfo, { description: 'Pass `endCursor` as `after` for the page of older messages.' }) pageInfo!: PageInfo;
}

@ObjectType({ description: 'Your unread counts changed; the event carries them as they are now.' })
export class UnreadCountEvent {
  @Field(() => UnreadChangeReason, { description: 'What changed them.' }) reason!: UnreadChangeReason;
  @Field(() => Int, { description: 'All your unread messages now (what `unreadMessageCount` answers).' }) unreadMessageCount!: number;
  @Field(() => Conversation, { description: 'The conversation whose count changed, as it is now.' }) conversation!: Conversation;
}

@ObjectType({ description: 'An agent came online (their first socket opened) or went offline (their last closed, or their gateway stopped answering).' })
export class PresenceChange {
  @Field(() => Int, { description: 'The agent.' }) userId!: number;
  @Field(() => Boolean, { description: 'True when the agent has at least one open socket now.' }) online!: boolean;
  @Field(() => Int, { description: 'Grows with every presence change of this agent: when changes arrive out of order, keep the one with the larger version.' })
  version!: number;
}

@ObjectType({
  description: 'Agents came online or went offline. Changes are sent in batches (at most one event per second per gateway), the newest change per agent.',
})
export class PresenceEvent {
  @Field(() => [PresenceChange], { description: 'The changes of this batch, one per agent.' }) changes!: PresenceChange[];
}

@ObjectType({
  description:
    'Your conversation partner is typing to you. Sent at most once per 2 seconds per sender; show it for a few seconds, or until their message arrives.',
})
export class TypingEvent {
  @Field(() => Int, { description: 'Who is typing.' }) senderId!: number;
  @Field(() => GraphQLDateTime, { description: 'When the server forwarded it.' }) at!: Date;
}

/** The online set, read once per request however many users a response lists. */
const onlineByRequest = new WeakMap<ServiceContext, Promise<Set<number>>>();

@Resolver(() => User)
export class UserPresenceResolver {
  @FieldResolver(() => Boolean, { description: 'True while the agent has at least one open socket (a signed-in tab), on any gateway.' })
  online(@Root() user: UserRecord, @Ctx() { service }: GraphQLContext) {
    let online = onlineByRequest.get(service);
    if (!online) onlineByRequest.set(service, (online = conversations.onlineUserIds(service)));
    return online.then((ids) => ids.has(user.id));
  }
}

@Resolver(() => Conversation)
export class ConversationResolver {
  @Query(() => ConversationConnection, {
    description: 'Your conversations, one per agent you have exchanged messages with, newest activity first, one page at a time.',
  })
  async conversations(@Args(() => PageArgs) page: PageArgs, @Ctx() { service }: GraphQLContext) {
    return toConnection(await conversations.listConversations(service, page));
  }

  @Query(() => Int, { description: 'All your unread messages, across conversations.' })
  unreadMessageCount(@Ctx() { service }: GraphQLContext) {
    return conversations.unreadMessageCount(service);
  }

  @Query(() => MessageConnection, {
    description: 'Your conversation with one agent, newest message first, one page at a time; `after` pages to older messages.',
  })
  async messages(
    @Arg('withUserId', () => Int, { description: 'The other agent of the conversation.' }) withUserId: number,
    @Args(() => PageArgs) page: PageArgs,
    @Ctx() { service }: GraphQLContext,
  ) {
    return toConnection(await messages.listConversationMessages(service, withUserId, page));
  }

  @Mutation(() => Conversation, {
    description:
      'Marks your conversation with `partnerId` read up to `upToMessageId` (default: everything so far). The read position only moves forward; your other tabs and devices get an `unreadCountEvents` event.',
  })
  markConversationRead(
    @Arg('partnerId', () => Int, { description: 'The other agent of the conversation.' }) partnerId: number,
    @Arg('upToMessageId', () => Int, { nullable: true, description: 'The newest message you have seen; omit to read everything so far.' })
    upToMessageId: number | null,
    @Ctx() { service }: GraphQLContext,
  ) {
    return conversations.markConversationRead(service, partnerId, upToMessageId);
  }

  @Mutation(() => Boolean, {
    description:
      'Tells `partnerId` that you are typing to them (their `typingEvents`). Never stored; at most one per 2 seconds per sender is forwarded: false when this one was dropped by that limit.',
  })
  notifyTyping(@Arg('partnerId', () => Int, { description: 'Who you are typing to.' }) partnerId: number, @Ctx() { service }: GraphQLContext) {
    return conversations.notifyTyping(service, partnerId);
  }

  @FieldResolver(() => User, { description: 'The other agent of the conversation.' })
  partner(@Root() conversation: ConversationRecord, @Ctx() { loaders }: GraphQLContext) {
    return conversation.partner ?? loaders.user.load(conversation.partnerId);
  }
}

/** Each listens on the caller's own topic (presence: everyone's), and re-reads through the caller's own context. */
@Resolver()
export class MessageCenterLiveResolver {
  @Subscription(() => UnreadCountEvent, {
    description:
      'Your unread counts changed: a message to you arrived, an unread one was deleted, or you read a conversation (on any tab or device). Every socket of yours gets it.',
    subscribe: ({ context }) => {
      const viewerId = requireViewer((context as GraphQLContext).service);
      return (context as GraphQLContext).service.deps.bus.subscribe('unread', viewerId);
    },
  })
  async unreadCountEvents(@Root() change: UnreadChange, @Ctx() { service }: GraphQLContext): Promise<UnreadCountEvent> {
    // Read now, under the subscriber's own identity: events handled in order end on the newest counts.
    service.em.clear();
    const { conversation, unreadMessageCount } = await conversations.conversationWithTotal(service, change.partnerId);
    return { reason: change.reason as UnreadChangeReason, unreadMessageCount, conversation: conversation as unknown as Conversation };
  }

  // Every signed-in subscriber may see the same presence (checked per subscriber in `subscribe`), and an event's
  // result reads nothing of the viewer: the websocket layer executes it once per event and sends that to all.
  @Extensions({ sameForEveryone: true })
  @Subscription(() => PresenceEvent, {
    description: 'Agents coming online and going offline (anyone signed in may see who is online).',
    subscribe: ({ context }) => {
      requireViewer((context as GraphQLContext).service);
      return (context as GraphQLContext).service.deps.bus.subscribe('presence');
    },
  })
  presenceEvents(@Root() event: { changes: PresenceChange[] }): PresenceEvent {
    return { changes: event.changes.map(({ userId, online, version }) => ({ userId, online, version })) };
  }

  @Subscription(() => TypingEvent, {
    description: 'Someone is typing to you (see `notifyTyping`). Only the partner they type to gets it.',
    subscribe: ({ context }) => {
      const viewerId = requireViewer((context as GraphQLContext).service);
      return pipe(
        (context as GraphQLContext).service.deps.bus.subscribe('typing', viewerId),
        filter((signal: TypingSignal) => signal.receiverId === viewerId),
      );
    },
  })
  typingEvents(@Root() signal: TypingSignal): TypingEvent {
    return { senderId: signal.senderId, at: new Date() };
  }
}

export const MESSAGE_CENTER_RESOLVERS = [UserPresenceResolver, ConversationResolver, MessageCenterLiveResolver] as const;
