/** Webhook endpoints over GraphQL (docs/webhooks.md). Thin: every rule is in services/webhooks.ts. */
import { Arg, Ctx, Field, FieldResolver, InputType, Int, Mutation, ObjectType, Query, Resolver, Root, registerEnumType } from 'type-graphql';
import { GraphQLDateTime } from 'graphql-scalars';
import { webhooks } from '../services/index.js';
import type { WebhookRecord } from '../services/webhooks.js';
import { WEBHOOK_EVENT_TYPES } from '../validation/rules.js';
import type { GraphQLContext } from './context.js';
import { PageInfo } from './connection.js';

export const WebhookEventType = Object.fromEntries(WEBHOOK_EVENT_TYPES.map((t) => [t, t])) as { [K in (typeof WEBHOOK_EVENT_TYPES)[number]]: K };

const EVENT_DESCRIPTIONS: Record<(typeof WEBHOOK_EVENT_TYPES)[number], string> = {
  TICKET_CREATED: 'One of your tickets was created; `data` is the ticket.',
  TICKET_UPDATED:
    "One of your tickets changed (fields, image, or its macro was deleted); `previous` holds the changed fields' old values, `changes` the same change as the ticket's event record has it ([{field, from, to}], GraphQL field names and spellings).",
  TICKET_DELETED: 'One of your tickets was deleted; `data` is the ticket as it was.',
  TICKET_NOTE_ADDED:
    "An internal note was added to one of your tickets; `data` is {id, ticketId, authorId, createdAt}. The note's text is not in the event (a deleted note's text is removed everywhere): read it with the ticket's `timeline`.",
  TICKET_REPLY_ADDED:
    'An agent’s public reply to the requester was added to one of your tickets (once, when committed); `data` is {id, ticketId, authorId, createdAt, delivery: {state}}, the delivery state then (later changes are not repeated here: see replyDeliveryEvents and TICKET_REPLY_BOUNCED). Read its text with the ticket’s `timeline`.',
  TICKET_REQUESTER_MESSAGE_ADDED:
    'The requester wrote on one of your tickets, by mail or on the requester page (a held mail too); `data` is {id, ticketId, via, held, heldReason, createdAt}. The message’s text and files are not in the event: read them with the ticket’s `timeline`.',
  TICKET_REPLY_BOUNCED:
    'A public reply on one of your tickets bounced (its delivery is now BOUNCED), once per reply; `data` is {id, ticketId, delivery: {state, lastResponse}}, `lastResponse` the bounce’s Diagnostic-Code (else its Status).',
  CUSTOMER_CREATED: 'A customer was added to the shared directory (every agent may read it).',
  CUSTOMER_UPDATED: "A customer of the shared directory changed; `previous` holds the changed fields' old values.",
  CUSTOMER_DELETED: 'A customer was deleted from the shared directory; `data` is the customer as it was.',
  MACRO_CREATED: 'You created a macro.',
  MACRO_UPDATED: "One of your macros changed; `previous` holds the changed fields' old values.",
  MACRO_DELETED: 'One of your macros was deleted (its tickets moved to macro 1, each with a TICKET_UPDATED).',
  MESSAGE_CREATED: 'A message was sent by you or to you.',
  MESSAGE_UPDATED: 'A message of a conversation of yours was edited; `previous` holds the old text.',
  MESSAGE_DELETED: 'A message of a conversation of yours was deleted; `data` is the message as it was.',
};

registerEnumType(WebhookEventType, {
  name: 'WebhookEventType',
  description: 'What a webhook can subscribe to. An endpoint only ever receives events about records its owner may read.',
  valuesConfig: Object.fromEntries(WEBHOOK_EVENT_TYPES.map((t) => [t, { description: EVENT_DESCRIPTIONS[t] }])),
});

@ObjectType({ simpleResolvers: true, description: 'One HTTP attempt to deliver an event to an endpoint. Kept 14 days.' })
export class WebhookDelivery {
  @Field(() => Int, { description: 'Pass to redeliverWebhookDelivery to send this event again.' }) id!: number;
  @Field(() => String, { description: 'The event type: a WebhookEventType name, or WEBHOOK_TEST for sendTestWebhook.' }) event!: string;
  @Field(() => String, { description: 'The `webhook-id` header: the same on every attempt of one event, so receivers can deduplicate.' }) messageId!: string;
  @Field(() => Int, { description: 'Which attempt for this event this was, from 1.' }) attempt!: number;
  @Field(() => Int, { nullable: true, description: 'The HTTP status the endpoint answered; null when there was no answer (see error).' }) statusCode!:
    number | null;
  @Field(() => Boolean, { description: 'True when the endpoint answered 2xx.' }) succeeded!: boolean;
  @Field(() => Int, { description: 'From connecting to the end of the response, in milliseconds.' }) durationMs!: number;
  @Field(() => String, {
    nullable: true,
    description: 'Why the attempt failed without a status (timeout, refused connection, address refused), or a note on a redirect.',
  })
  error!: string | null;
  @Field(() => String, { nullable: true, description: 'The start of the response body (at most 1,024 characters).' }) responseExcerpt!: string | null;
  @Field(() => GraphQLDateTime, { description: 'When the attempt was made.' }) createdAt!: Date;
}

@ObjectType({ simpleResolvers: true, description: 'A page of delivery attempts, newest first.' })
export class WebhookDeliveryConnection {
  @Field(() => [WebhookDelivery], { description: 'The attempts of this page.' }) nodes!: WebhookDelivery[];
  @Field(() => PageInfo, { description: 'Pass endCursor as `after` for the next page.' }) pageInfo!: PageInfo;
}

@ObjectType({
  simpleResolvers: true,
  description: 'An endpoint of yours that receives signed events (Standard Webhooks). Its secret is shown only when created or rotated.',
})
export class Webhook {
  @Field(() => Int, { description: 'The endpoint id.' }) id!: number;
  @Field(() => String, { description: 'Where events are POSTed: https://, or http:// for hosts the administrator allowlisted.' }) url!: string;
  @Field(() => [WebhookEventType], { description: 'The event types it receives.' }) events!: string[];
  @Field(() => Boolean, { description: 'False once disabled (by 410 Gone, a day of failures, or by you); see disabledReason.' }) enabled!: boolean;
  @Field(() => GraphQLDateTime, { nullable: true, description: 'When it was disabled; null while enabled.' }) disabledAt!: Date | null;
  @Field(() => String, { nullable: true, description: 'Why it was disabled, for the agent; null while enabled.' }) disabledReason!: string | null;
  @Field(() => Int, { description: 'Failed attempts since the last success; a day of them disables the endpoint.' }) consecutiveFailures!: number;
  @Field(() => GraphQLDateTime, { nullable: true, description: 'After a rotation: until when the previous secret still signs (a second signature).' })
  previousSecretExpiresAt!: Date | null;
  @Field(() => GraphQLDateTime, { description: 'When it was registered.' }) createdAt!: Date;
  @Field(() => GraphQLDateTime, { description: 'When it last changed.' }) updatedAt!: Date;
}

@ObjectType({ simpleResolvers: true, description: 'A new endpoint and its signing secret. The secret is shown here once: store it now.' })
export class WebhookCreated {
  @Field(() => String, { description: '`whsec_<base64>`: verify the `webhook-signature` header with it.' }) secret!: string;
  @Field(() => Webhook, { description: 'The endpoint.' }) webhook!: WebhookRecord;
}

@ObjectType({ simpleResolvers: true, description: 'A rotated secret, shown once. The previous secret also signs until previousSecretExpiresAt (24 hours).' })
export class WebhookSecretRotated {
  @Field(() => String, { description: 'The new `whsec_<base64>` secret.' }) secret!: string;
  @Field(() => Webhook, { description: 'The endpoint.' }) webhook!: WebhookRecord;
}

@InputType({ description: 'A new endpoint.' })
export class WebhookInput {
  @Field(() => String, { description: 'https:// URL of a public host (http:// and LAN hosts only if allowlisted by the administrator).' }) url!: string;
  @Field(() => [WebhookEventType], { description: 'At least one event type.' }) events!: string[];
}

@InputType({ description: 'Changes to an endpoint; omitted fields stay as they are.' })
export class WebhookUpdateInput {
  @Field(() => String, { nullable: true, description: "A new URL, checked like a new endpoint's." }) url?: string | null;
  @Field(() => [WebhookEventType], { nullable: true, description: 'A new list of event types (at least one).' }) events?: string[] | null;
  @Field(() => Boolean, { nullable: true, description: 'true re-enables a disabled endpoint (its failure count starts again); false disables it.' }) enabled?:
    boolean | null;
}

@Resolver(() => Webhook)
export class WebhookResolver {
  @Query(() => [Webhook], { description: 'Your webhook endpoints, oldest first.' })
  webhooks(@Ctx() { service }: GraphQLContext) {
    return webhooks.listWebhooks(service);
  }

  @Query(() => Webhook, { description: "One of your endpoints (for its delivery log); NOT_FOUND for anyone else's." })
  webhook(@Arg('id', () => Int, { description: 'The endpoint id.' }) id: number, @Ctx() { service }: GraphQLContext) {
    return webhooks.getWebhook(service, id);
  }

  @Mutation(() => WebhookCreated, {
    description: 'Registers an endpoint. The URL and every address its host resolves to are checked (no private, loopback or metadata addresses).',
  })
  createWebhook(@Arg('input', () => WebhookInput, { description: 'URL and event types.' }) input: WebhookInput, @Ctx() { service }: GraphQLContext) {
    return webhooks.createWebhook(service, input);
  }

  @Mutation(() => Webhook, { description: "Changes an endpoint's URL or events, or enables/disables it." })
  updateWebhook(
    @Arg('id', () => Int, { description: 'The endpoint id.' }) id: number,
    @Arg('input', () => WebhookUpdateInput, { description: 'What to change.' }) input: WebhookUpdateInput,
    @Ctx() { service }: GraphQLContext,
  ) {
    return webhooks.updateWebhook(service, id, input);
  }

  @Mutation(() => Int, { description: 'Deletes an endpoint with its pending deliveries and log; returns the id.' })
  deleteWebhook(@Arg('id', () => Int, { description: 'The endpoint id.' }) id: number, @Ctx() { service }: GraphQLContext) {
    return webhooks.deleteWebhook(service, id);
  }

  @Mutation(() => WebhookSecretRotated, { description: 'Issues a new secret (shown once); the old one also signs for 24 hours.' })
  rotateWebhookSecret(@Arg('id', () => Int, { description: 'The endpoint id.' }) id: number, @Ctx() { service }: GraphQLContext) {
    return webhooks.rotateWebhookSecret(service, id);
  }

  @Mutation(() => WebhookDelivery, { description: 'Sends the event of a logged attempt again now, with the same webhook-id; returns the new attempt.' })
  redeliverWebhookDelivery(@Arg('id', () => Int, { description: 'A WebhookDelivery id.' }) id: number, @Ctx() { service }: GraphQLContext) {
    return webhooks.redeliverWebhookDelivery(service, id);
  }

  @Mutation(() => WebhookDelivery, { description: 'Sends a signed WEBHOOK_TEST event to the endpoint now; returns the attempt.' })
  sendTestWebhook(@Arg('id', () => Int, { description: 'The endpoint id.' }) id: number, @Ctx() { service }: GraphQLContext) {
    return webhooks.sendTestWebhook(service, id);
  }

  @FieldResolver(() => WebhookDeliveryConnection, { description: 'Recent delivery attempts, newest first (kept 14 days). `first` is capped at 100.' })
  async deliveries(
    @Root() webhook: WebhookRecord,
    @Arg('first', () => Int, { nullable: true, defaultValue: 20, description: 'How many (1 to 100).' }) first: number,
    @Arg('after', () => String, { nullable: true, description: 'The endCursor of the previous page.' }) after: string | null,
    @Ctx() { service }: GraphQLContext,
  ) {
    const page = await webhooks.listDeliveries(service, webhook.id, { first, after });
    return { nodes: page.nodes, pageInfo: { endCursor: page.endCursor, hasNextPage: page.hasNextPage } };
  }
}
