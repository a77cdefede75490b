/**
 * The condition tree and the field registry in GraphQL: `input TicketCondition` (a group or one
 * comparison; `tickets(where:)` takes it), the enums `ConditionOp` and `TicketFieldType`, `ticketFields` (the
 * registry as the web app's condition editor reads it) and `Ticket.channel`. The shapes and rules are the shared
 * module's (`@fulcrum/schema/conditions`); this file only names them for GraphQL, and the services check the tree.
 */
import DataLoader from 'dataloader';
import { Ctx, Extensions, Field, FieldResolver, InputType, ObjectType, Query, Resolver, Root, registerEnumType } from 'type-graphql';
import { CONDITION_OPS, TICKET_FIELDS, TICKET_FIELD_TYPES } from '../conditions/index.js';
import type { ServiceContext } from '../services/context.js';
import { ticketChannels, ticketFieldsFor } from '../services/rules/ticketChannel.js';
import type { TicketRecord } from '../records/index.js';
import type { GraphQLContext } from './context.js';
import { ChangeSource } from './timelineTypes.js';
import { Ticket } from './types.js';

/** The most options one field has (the channels). */
const MAX_OPTIONS = Math.max(...TICKET_FIELDS.map((f) => f.options?.length ?? 0));

const enumOf = <T extends string>(values: readonly T[]) => Object.fromEntries(values.map((v) => [v, v])) as { [K in T]: K };

export const ConditionOp = enumOf(CONDITION_OPS);
registerEnumType(ConditionOp, {
  name: 'ConditionOp',
  description:
    'How a comparison compares a field with its values. Text comparisons (EQ to ENDS_WITH on a TEXT field) ignore case and take every character literally; a ticket without a value (no team, unassigned) equals no value, so NEQ, NOT_IN and NOT_CONTAINS hold for it. IS_SET and IS_NOT_SET take no values, IN and NOT_IN one or more, every other operator exactly one.',
  valuesConfig: {
    EQ: { description: 'Equal to the value.' },
    NEQ: { description: 'Not equal to the value (true for a ticket without a value).' },
    IN: { description: 'Equal to one of the values.' },
    NOT_IN: { description: 'Equal to none of the values.' },
    CONTAINS: { description: 'The text holds the value.' },
    NOT_CONTAINS: { description: 'The text does not hold the value.' },
    STARTS_WITH: { description: 'The text starts with the value.' },
    ENDS_WITH: { description: 'The text ends with the value.' },
    GT: { description: 'After the instant (ISO 8601, to the millisecond).' },
    GTE: { description: 'At or after the instant.' },
    LT: { description: 'Before the instant.' },
    LTE: { description: 'At or before the instant.' },
    IS_SET: { description: 'Has a value (a team, an assignee).' },
    IS_NOT_SET: { description: 'Has no value (no team; unassigned).' },
    WITHIN_LAST: { description: 'At or after now minus the duration (ISO 8601: P3D, PT4H, P1DT2H, PT90S).' },
    MORE_THAN_AGO: { description: 'Before now minus the duration.' },
  },
});

export const TicketFieldType = enumOf(TICKET_FIELD_TYPES);
registerEnumType(TicketFieldType, {
  name: 'TicketFieldType',
  description: "A ticket field's kind: it fixes the field's operators and how its values are written.",
  valuesConfig: {
    ENUM: { description: 'One of the `options`, written as GraphQL names it (`High`, `OPEN`).' },
    REFERENCE: { description: 'A user, team or customer, by id in decimal.' },
    TEXT: { description: 'A text, compared ignoring case.' },
    NUMBER: { description: 'A number.' },
    TIME: { description: 'An instant, ISO 8601 (`2026-12-01T09:00:00Z`); WITHIN_LAST and MORE_THAN_AGO take a duration (`P3D`).' },
    DATE: { description: 'A calendar date.' },
    BOOLEAN: { description: 'True or false.' },
    TAG_LIST: { description: 'A list of tags.' },
    MULTI_ENUM: { description: 'Any number of options.' },
    DURATION: { description: 'A length of time, ISO 8601.' },
  },
});

@InputType('TicketCondition', {
  description:
    'A condition on tickets: either a group (exactly one of all, any, not) or one comparison (field, op, values). Anything else, an unknown field, an operator the field does not take or a bad value is BAD_USER_INPUT keyed by the node\'s path (`where.all.1.any.0`). At most 5 levels deep and 50 comparisons (docs/integrators.md, "Limits").',
})
export class TicketCondition {
  @Field(() => [TicketCondition], { nullable: true, description: 'Every one of these holds.' })
  all?: TicketCondition[] | null;

  @Field(() => [TicketCondition], { nullable: true, description: 'At least one of these holds.' })
  any?: TicketCondition[] | null;

  @Field(() => TicketCondition, { nullable: true, description: 'This does not hold.' })
  not?: TicketCondition | null;

  @Field(() => String, { nullable: true, description: 'A key of `ticketFields` (`status`, `teamId`, `requester.email` …).' })
  field?: string | null;

  @Field(() => ConditionOp, { nullable: true, description: "One of the field's `operators`." })
  op?: string | null;

  @Field(() => [String], { nullable: true, description: 'The values, as strings: enum values, ids in decimal, ISO 8601 times and durations.' })
  values?: string[] | null;
}

@ObjectType('FieldOption', { description: 'One value of an enum field.' })
class FieldOption {
  @Field(() => String, { description: 'The value as a condition writes it.' })
  value!: string;

  @Field(() => String, { description: 'The value as the web app shows it.' })
  label!: string;
}

@ObjectType('TicketField', { description: 'A ticket field conditions may compare (the field registry).' })
class TicketField {
  @Field(() => String, { description: 'What a comparison names in `field`.' })
  key!: string;

  @Field(() => String, { description: 'The name the web app shows.' })
  label!: string;

  @Field(() => TicketFieldType, { description: 'Its kind.' })
  type!: string;

  @Field(() => [ConditionOp], { description: 'The operators it takes.' })
  operators!: string[];

  // The most options a field has (the channels): the cost model prices the list at that bound.
  @Extensions({ maxItems: MAX_OPTIONS })
  @Field(() => [FieldOption], { nullable: true, description: "An enum field's every value; null for other kinds." })
  options?: FieldOption[] | null;
}

const channels = new WeakMap<ServiceContext, DataLoader<number, string | null>>();

function channelLoader(service: ServiceContext): DataLoader<number, string | null> {
  let loader = channels.get(service);
  if (!loader) channels.set(service, (loader = new DataLoader<number, string | null>((ids) => ticketChannels(service, ids))));
  return loader;
}

@Resolver(() => Ticket)
export class TicketConditionResolver {
  // One entry per registry field: the cost model prices the list at that bound.
  @Extensions({ maxItems: TICKET_FIELDS.length })
  @Query(() => [TicketField], { description: 'The ticket fields conditions (`tickets(where:)`) may compare, with their operators and options.' })
  ticketFields(@Ctx() { service }: GraphQLContext): TicketField[] {
    return ticketFieldsFor(service).map((f) => ({ ...f, operators: [...f.operators], options: f.options ? f.options.map((o) => ({ ...o })) : null }));
  }

  @FieldResolver(() => ChangeSource, {
    nullable: true,
    description: 'The door the ticket was created through, as `ChangeSource` names it (null: no recorded creation); the `channel` of conditions.',
  })
  channel(@Root() ticket: TicketRecord, @Ctx() { service }: GraphQLContext): Promise<string | null> {
    return channelLoader(service).load(ticket.id);
  }
}
