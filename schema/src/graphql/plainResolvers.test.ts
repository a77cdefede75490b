import { describe, expect, it } from 'vitest';
import { GraphQLObjectType, GraphQLUnionType } from 'graphql';
import { buildFulcrumSchema } from './buildSchema.js';
import { PLAIN_RESOLVER } from './plainResolvers.js';

const plain = (resolve: unknown) => typeof resolve === 'function' && PLAIN_RESOLVER in resolve;

describe('plain field resolvers', () => {
  it("the dashboard's relation fields are called without type-graphql's wrapper; fields with arguments keep it", async () => {
    const schema = await buildFulcrumSchema();
    const ticket = schema.getType('Ticket') as GraphQLObjectType;
    const fields = ticket.getFields();
    for (const name of ['requester', 'assignee', 'team', 'macro', 'awaitingReply']) expect(plain(fields[name].resolve), name).toBe(true);
    expect(plain((schema.getType('TicketImage') as GraphQLObjectType).getFields().url.resolve)).toBe(true);
    // timeline takes arguments (converted and checked by type-graphql): wrapped as before.
    expect(fields.timeline.resolve).toBeTypeOf('function');
    expect(plain(fields.timeline.resolve)).toBe(false);
  });

  it("the timeline union names its entry's type at once, not as a promise (compiled queries take only a name)", async () => {
    const union = (await buildFulcrumSchema()).getType('TimelineEntry') as GraphQLUnionType;
    const kinds = { note: 'TicketNote', change: 'TicketChange', reply: 'TicketReply', requesterMessage: 'RequesterMessage' };
    for (const [entry, typeName] of Object.entries(kinds)) expect(union.resolveType!({ entry }, {}, {} as never, union)).toBe(typeName);
  });
});
