import 'reflect-metadata';
import { buildSchema } from 'type-graphql';
import type { GraphQLSchema } from 'graphql';
import { RESOLVERS } from './resolvers.js';
import { MESSAGE_CENTER_RESOLVERS } from './conversations.js';
import { ApiTokenResolver } from './apiTokens.js';
import { describeSchema } from './descriptions.js';
import { WebhookResolver } from './webhooks.js';
import { TIMELINE_RESOLVERS } from './timeline.js';
import { ReportResolver } from './reports.js';
import { ViewResolver } from './views.js';
import { MailedMessageResolver } from './incomingMail.js';
import { NotTicketedMailResolver } from './notTicketedMail.js';
import { FieldChangeLabelResolver } from './fieldChangeLabels.js';
import { TicketSubjectResolver } from './ticketSubject.js';
import { TicketSearchMatchResolver } from './searchMatch.js';
import { TicketConditionResolver } from './conditions.js';
import { usePlainFieldResolvers, useSyncTypeResolvers } from './plainResolvers.js';

let cached: Promise<GraphQLSchema> | undefined;

/**
 * type-graphql insists on a pubSub, but every subscription here subscribes through the bus in its context
 * (one bus per gateway: in memory, or Redis), so this one must never be used.
 */
const unusedPubSub = {
  publish: () => {
    throw new Error('publish through ServiceDeps.bus, not the schema pubSub');
  },
  subscribe: () => {
    throw new Error('subscribe through ServiceDeps.bus, not the schema pubSub');
  },
};

/** Every resolver class of the schema. */
export const SCHEMA_RESOLVERS = [
  ...RESOLVERS,
  ...MESSAGE_CENTER_RESOLVERS,
  ApiTokenResolver,
  WebhookResolver,
  ...TIMELINE_RESOLVERS,
  ReportResolver,
  ViewResolver,
  MailedMessageResolver,
  NotTicketedMailResolver,
  FieldChangeLabelResolver,
  TicketSubjectResolver,
  TicketSearchMatchResolver,
  TicketConditionResolver,
] as const;

/** The executable schema. Validation is off in type-graphql: the service layer owns every rule. */
export function buildFulcrumSchema(): Promise<GraphQLSchema> {
  cached ??= buildSchema({ resolvers: SCHEMA_RESOLVERS, validate: false, pubSub: unusedPubSub })
    .then(describeSchema)
    .then(usePlainFieldResolvers)
    .then(useSyncTypeResolvers);
  return cached;
}
