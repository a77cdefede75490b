/**
 * Incoming mail on the agent's timeline (services/incomingMail.ts): a mailed RequesterMessage's
 * authentication result, why it is held, its subject and its full original; agents accept or discard held mail.
 * Every read and write goes through the service and the ticket access rule.
 */
import { GraphQLDateTime } from 'graphql-scalars';
import { Arg, Ctx, Field, FieldResolver, Int, Mutation, ObjectType, Query, registerEnumType, Resolver, Root } from 'type-graphql';
import { incomingMail } from '../services/index.js';
import type { RequesterMessageRecord } from '../services/requesterReplies.js';
import type { GraphQLContext } from './context.js';
import { RequesterMessage } from './timelineTypes.js';

const HeldReason = Object.fromEntries(incomingMail.HELD_REASONS.map((r) => [r, r])) as { [K in incomingMail.HeldReason]: K };
registerEnumType(HeldReason, {
  name: 'HeldReason',
  description: 'Why a mailed message is held for an agent.',
  valuesConfig: {
    SENDER: { description: "It came from an address other than the ticket's requester's." },
    DMARC: { description: "The sender's domain's DMARC check failed (a forged sender, most likely)." },
    LOOP: { description: 'Automatic mail (an auto-reply, a bounce, a list): recorded, never answered, never reopening the ticket.' },
    UNVERIFIED: {
      description: 'Nothing but the thread root or the subject tag ties it to the ticket, and neither an aligned DKIM signature nor DMARC passed.',
    },
  },
});

@ObjectType({ simpleResolvers: true, description: 'What the receiving server found of a mail’s sender (mailauth).' })
export class MailAuthentication {
  @Field(() => String, { description: 'SPF: pass, fail, softfail, neutral, none, temperror or permerror.' })
  spf!: string;
  @Field(() => String, { description: 'DKIM: pass when a signature verified, else the first signature’s result, or none.' })
  dkim!: string;
  @Field(() => String, {
    description: 'DMARC: pass, fail, none, temperror... Only fail holds a reply on its ticket; the others are shown only.',
  })
  dmarc!: string;
}

@ObjectType({ simpleResolvers: true, description: 'The full original of a mailed message.' })
export class MailOriginal {
  @Field(() => String, { description: 'The whole subject.' })
  subject!: string;
  @Field(() => String, { description: 'The sender’s address.' })
  fromEmail!: string;
  @Field(() => String, { description: 'The whole text, quoted history and signature included (plain text).' })
  text!: string;
  @Field(() => String, {
    nullable: true,
    description: 'The HTML part, sanitised (no script, style, form or frame; https images only); show it in a sandboxed frame. Null when none.',
  })
  html!: string | null;
}

@Resolver(() => RequesterMessage)
export class MailedMessageResolver {
  @FieldResolver(() => MailAuthentication, { nullable: true, description: 'The sender authentication of a mailed message; null from the requester page.' })
  async authentication(@Root() message: RequesterMessageRecord, @Ctx() { loaders }: GraphQLContext) {
    return message.via === 'EMAIL' ? ((await loaders.mailDetails.load(message.id))?.auth ?? null) : null;
  }

  @FieldResolver(() => HeldReason, { nullable: true, description: 'Why the message is held; null when it is not.' })
  async heldReason(@Root() message: RequesterMessageRecord, @Ctx() { loaders }: GraphQLContext) {
    if (!message.held || message.via !== 'EMAIL') return null;
    return (await loaders.mailDetails.load(message.id))?.heldReason ?? 'SENDER';
  }

  @FieldResolver(() => String, { nullable: true, description: 'The subject of a mailed message (a new ticket’s whole subject); null from the page.' })
  async subject(@Root() message: RequesterMessageRecord, @Ctx() { loaders }: GraphQLContext) {
    return message.via === 'EMAIL' ? ((await loaders.mailDetails.load(message.id))?.subject ?? null) : null;
  }

  @FieldResolver(() => GraphQLDateTime, { nullable: true, description: 'When an agent discarded this held message (its text is gone); null otherwise.' })
  discardedAt(@Root() message: RequesterMessageRecord) {
    return message.discardedAt;
  }

  @FieldResolver(() => MailOriginal, {
    nullable: true,
    description: 'The full original of a mailed message (ask for it one message at a time); null from the page.',
  })
  async original(@Root() message: RequesterMessageRecord, @Ctx() { service }: GraphQLContext) {
    return message.via === 'EMAIL' ? incomingMail.mailOriginal(service, message.id) : null;
  }

  @Query(() => MailOriginal, {
    description: 'The full original of a mailed message on one of your tickets (as `RequesterMessage.original`); NOT_FOUND otherwise.',
  })
  mailOriginal(@Arg('messageId', () => Int, { description: 'A requester message that came by mail.' }) messageId: number, @Ctx() { service }: GraphQLContext) {
    return incomingMail.mailOriginal(service, messageId);
  }

  @Mutation(() => RequesterMessage, {
    description:
      'Accepts a held mail on one of your tickets: it joins the public conversation (the requester sees it). A message that is not held is NOT_FOUND.',
  })
  acceptRequesterMessage(@Arg('id', () => Int, { description: 'The held message.' }) id: number, @Ctx() { service }: GraphQLContext) {
    return incomingMail.acceptRequesterMessage(service, id);
  }

  @Mutation(() => RequesterMessage, {
    description:
      'Discards a held mail on one of your tickets: its text, files and original are removed; it stays as a tombstone. A message that is not held is NOT_FOUND.',
  })
  discardRequesterMessage(@Arg('id', () => Int, { description: 'The held message.' }) id: number, @Ctx() { service }: GraphQLContext) {
    return incomingMail.discardRequesterMessage(service, id);
  }
}
