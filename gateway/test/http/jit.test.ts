/**
 * Repeated queries executed by graphql-jit (gateway/src/graphql/jit.ts): a query the gateway has executed
 * a few times is compiled after it is answered and answered by its compiled form from then on, with the same
 * answer as graphql-js's, errors included (an answer with an error is graphql-js's). A mutation, and a document seen
 * fewer times, are never compiled.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { startTestGateway, type TestGateway } from '../../src/testing/harness.js';
import type { GqlResult, TestClient } from '../../src/testing/client.js';
import { sleep } from '../../src/testing/measure.js';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import { buildSchema } from 'graphql';
import { jitGateway } from '../../src/graphql/jit.js';

/** The web app's dashboard selections, with the relations, counts and views (web/src/tickets). */
const DASHBOARD = `query Dashboard($first: Int!, $after: String, $filter: TicketFilter, $orderBy: TicketOrder) {
  me { id username }
  views { id name count scope team { id name } filter { status search } }
  tickets(first: $first, after: $after, filter: $filter, orderBy: $orderBy) {
    totalCount
    statusCounts { open pending solved }
    nodes {
      id title type priority status requesterId updatedAt awaitingReply version assigneeId teamId
      requester { id name email }
      assignee { id username }
      team { id name }
      macro { id name }
      image { id url }
    }
    pageInfo { endCursor hasNextPage }
  }
}`;

const body = (r: GqlResult) => ({ status: r.status, data: r.data, errors: r.errors });

describe('repeated queries compiled by graphql-jit', () => {
  let gw: TestGateway;
  let demo: TestClient;
  beforeAll(async () => {
    gw = await startTestGateway({ jitAfter: 2 });
    demo = await gw.as(0);
  });
  afterAll(() => gw.destroy());

  /** Asks `query` until the gateway has compiled it (bounded by the test's timeout), then once more. */
  async function compiledAnswer(client: TestClient, query: string, variables: Record<string, unknown> = {}) {
    const before = gw.jit.compiledAnswers + gw.jit.redone;
    for (;;) {
      const answer = await client.gql(query, variables);
      if (gw.jit.compiledAnswers + gw.jit.redone > before) return answer;
      await sleep(5);
    }
  }

  it('answers the dashboard from its compiled form exactly as graphql-js does, page after page, in every order', async () => {
    for (const orderBy of ['NEWEST', 'PRIORITY', 'UPDATED']) {
      const variables = { first: 7, filter: { status: ['OPEN', 'PENDING', 'SOLVED'] }, orderBy };
      const plain = await demo.gql(DASHBOARD, variables);
      expect(plain.errors).toBeUndefined();
      expect(plain.data?.tickets.nodes.length).toBeGreaterThan(0);
      const compiledBefore = gw.jit.compiledAnswers;
      const jitted = await compiledAnswer(demo, DASHBOARD, variables);
      expect(gw.jit.compiledAnswers).toBe(compiledBefore + 1);
      expect(body(jitted)).toEqual(body(plain));
      // The next page of the same document: another cursor, the compiled form again.
      const next = { ...variables, after: plain.data!.tickets.pageInfo.endCursor };
      const before = gw.jit.compiledAnswers;
      const secondJitted = await demo.gql(DASHBOARD, next);
      expect(gw.jit.compiledAnswers).toBe(before + 1);
      expect(body(secondJitted)).toEqual(body(await plainAnswer(DASHBOARD, next)));
    }
  });

  /** The same question through graphql-js: the same selections under another operation text (not compiled yet). */
  async function plainAnswer(query: string, variables: Record<string, unknown>) {
    const unique = `${query}\n# ${Math.random()}`;
    const before = gw.jit.compiledAnswers;
    const answer = await demo.gql(unique, variables);
    expect(gw.jit.compiledAnswers).toBe(before);
    return answer;
  }

  it("an error is graphql-js's own: a ticket another agent may not read, and a bad variable", async () => {
    const marnie = await gw.as(1);
    const theirs = (await marnie.gql('{ tickets(first: 1) { nodes { id } } }')).data!.tickets.nodes[0].id as number;
    const TICKET = 'query One($id: Int!) { ticket(id: $id) { id title } me { id } }';
    const denied = await demo.gql(TICKET, { id: theirs });
    expect(denied.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const redone = gw.jit.redone;
    const again = await compiledAnswer(demo, TICKET, { id: theirs });
    expect(gw.jit.redone).toBe(redone + 1);
    expect(body(again)).toEqual(body(denied));
    // A variable of the wrong type, to the compiled document: graphql-js's message and code.
    const bad = await demo.gql(TICKET, { id: 'seven' });
    expect(bad.status).toBe(400);
    expect(body(bad)).toEqual(body(await plainAnswer(TICKET, { id: 'seven' })));
  });

  it('any variables: the compiled answer is the one graphql-js gives (fast-check)', async () => {
    const QUERY = `query Search($first: Int!, $filter: TicketFilter, $orderBy: TicketOrder) {
      tickets(first: $first, filter: $filter, orderBy: $orderBy) { totalCount nodes { id title status priority requester { name } } }
    }`;
    await compiledAnswer(demo, QUERY, { first: 1 });
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            first: fc.oneof(fc.integer({ min: -2, max: 120 }), fc.constant('ten')),
            filter: fc.option(
              fc.record(
                {
                  search: fc.option(fc.constantFrom('printer', 'invoice', 'a', '#1', '"', 'zzz'), { nil: undefined }),
                  status: fc.option(fc.subarray(['OPEN', 'PENDING', 'SOLVED', 'CLOSED']), { nil: undefined }),
                  priority: fc.option(fc.subarray(['Low', 'High', 'Urgent']), { nil: undefined }),
                },
                { requiredKeys: [] },
              ),
              { nil: null },
            ),
            orderBy: fc.option(fc.constantFrom('NEWEST', 'OLDEST', 'RELEVANCE', 'PRIORITY', 'UPDATED', 'SIDEWAYS'), { nil: null }),
          },
          { requiredKeys: ['first'] },
        ),
        async (variables) => {
          const jitted = await demo.gql(QUERY, variables);
          expect(body(jitted)).toEqual(body(await plainAnswer(QUERY, variables)));
        },
      ),
      { numRuns: 60 },
    );
  });

  it("a ticket's timeline (a union of entry types) is answered compiled, as graphql-js answers it", async () => {
    const id = (await demo.gql('query MineForTimeline { tickets(first: 1) { nodes { id } } }')).data!.tickets.nodes[0].id as number;
    const note = await demo.gql('mutation ($id: Int!) { addTicketNote(ticketId: $id, body: "compiled timeline") { id } }', { id });
    expect(note.errors).toBeUndefined();
    const TIMELINE = `query Timeline($id: Int!) { ticket(id: $id) { id timeline(first: 10) { totalCount nodes {
      __typename ... on TicketNote { seq body } ... on TicketChange { seq } } } } }`;
    const redone = gw.jit.redone;
    const compiled = await compiledAnswer(demo, TIMELINE, { id });
    expect(gw.jit.redone).toBe(redone);
    expect(compiled.data?.ticket.timeline.nodes.map((n: { __typename: string }) => n.__typename)).toContain('TicketNote');
    expect(body(compiled)).toEqual(body(await plainAnswer(TIMELINE, { id })));
  });

  it('never compiles a document with a variable of a recursive input type (TicketCondition): graphql-js answers it', async () => {
    const query = 'query Where($where: TicketCondition) { tickets(where: $where, first: 5) { totalCount nodes { id } } }';
    const where = { all: [{ field: 'status', op: 'IN', values: ['OPEN', 'PENDING'] }, { not: { field: 'teamId', op: 'IS_SET' } }] };
    const compiled = gw.jit.compiled;
    const first = await demo.gql(query, { where });
    expect(first.errors).toBeUndefined();
    // Past the threshold, and time for a compilation that would have been scheduled after the answer.
    for (let i = 0; i < 4; i++) expect(body(await demo.gql(query, { where }))).toEqual(body(first));
    await sleep(50);
    expect(body(await demo.gql(query, { where }))).toEqual(body(first));
    expect(gw.jit.compiled).toBe(compiled);
  });

  it('never compiles a mutation, nor a document asked fewer times than the threshold', async () => {
    const compiled = gw.jit.compiled;
    const MUTATION = 'mutation($id: Int!) { setTicketStatus(id: $id, status: OPEN) { id status } }';
    const id = (await demo.gql('query AskedOnce { tickets(first: 1) { nodes { id } } }')).data!.tickets.nodes[0].id as number;
    for (let i = 0; i < 4; i++) expect((await demo.gql(MUTATION, { id })).errors).toBeUndefined();
    await demo.gql('query Once { me { id } }');
    await sleep(50);
    expect(gw.jit.compiled).toBe(compiled);
  });
});

describe('a compiled query that throws', () => {
  it("is answered by graphql-js, with the field's error, not a server error", async () => {
    // A record whose property throws when read (as a relation not loaded does): graphql-js reports a field error,
    // graphql-jit's compiled field access throws out of the whole query.
    const schema = buildSchema('type Record { id: Int, name: String } type Query { record: Record }');
    schema.getQueryType()!.getFields().record.resolve = () => ({
      id: 1,
      get name(): string {
        throw new Error('name not loaded');
      },
    });
    const gateway = jitGateway(schema, { after: 1 });
    // Without cache control, as the gateway runs it (graphql/apollo.ts): with it, Apollo wraps every field's
    // resolver and the getter is read inside graphql-jit's own guard.
    const server = new ApolloServer({ gateway, plugins: [ApolloServerPluginCacheControlDisabled()] });
    await server.start();
    try {
      const ask = async () => {
        const { body } = await server.executeOperation({ query: '{ record { id name } }' });
        if (body.kind !== 'single') throw new Error('expected a single answer');
        return body.singleResult;
      };
      const plain = await ask();
      expect(plain.errors?.map((e) => [e.message, e.path])).toEqual([['name not loaded', ['record', 'name']]]);
      await expect.poll(() => gateway.stats.compiled).toBe(1);
      const afterCompiling = await ask();
      expect(gateway.stats.redone).toBe(1);
      expect(afterCompiling).toEqual(plain);
    } finally {
      await server.stop();
    }
  });
});
