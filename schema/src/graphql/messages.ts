/**
 * Direct messages between agents.
 */
import { Arg, Ctx, FieldResolver, Int, Mutation, Resolver, Root } from 'type-graphql';
import { messages } from '../services/index.js';
import type { MessageRecord } from '../records/index.js';
import type { GraphQLContext } from './context.js';
import { MESSAGE_ARG_NAMES, withInputNames } from './inputNames.js';
import { Message, User } from './types.js';

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
