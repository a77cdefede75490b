/**
 * A query's cost is remembered per document, operation name and variables (cost.ts, queryCost): the same text sent
 * again with other variables, another operation or other @include conditions is priced for what it asks, and a
 * page size out of bounds is refused even after the same document was priced with a valid one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/harness.js';
import type { GqlResult, TestClient } from '../testing/client.js';

let gw: TestGateway;
let demo: TestClient;

beforeAll(async () => {
  gw = await startTestGateway();
  demo = await gw.as(0);
});

afterAll(async () => {
  await gw?.destroy();
});

const requested = (r: GqlResult) => (r as unknown as { extensions?: { cost?: { requested: number } } }).extensions?.cost?.requested;

const DOC = `query Page($n: Int, $withRequester: Boolean!) {
  tickets(first: $n) { nodes { id requester @include(if: $withRequester) { id } } }
}
query Me { me { id } }`;

describe('the cost of a repeated query', () => {
  it('follows its variables, its operation and its directives every time', async () => {
    const ask = (variables: Record<string, unknown>, operationName = 'Page') =>
      demo.fetch('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: DOC, variables, operationName }),
      });
    const cost = async (variables: Record<string, unknown>, operationName?: string) => {
      const res = await ask(variables, operationName);
      const body = (await res.json()) as { errors?: unknown; extensions?: { cost?: { requested: number } } };
      expect(body.errors).toBeUndefined();
      return body.extensions?.cost?.requested;
    };
    // A ticket costs 1, its requester 1 more.
    expect(await cost({ n: 5, withRequester: false })).toBe(5);
    expect(await cost({ n: 50, withRequester: false })).toBe(50);
    expect(await cost({ n: 5, withRequester: true })).toBe(10);
    expect(await cost({ n: 5, withRequester: false })).toBe(5);
    expect(await cost({ withRequester: true })).toBe(100); // `first` omitted: the default page of 50
    expect(await cost({}, 'Me')).toBe(1);
    for (const n of [101, 0]) {
      const over = await ask({ n, withRequester: false });
      expect(over.status).toBe(400);
      const body = (await over.json()) as { errors: { extensions: { code: string; fields: Record<string, string[]> } }[] };
      expect(body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
      expect(body.errors[0].extensions.fields.first).toBeDefined();
    }
    // The plain form of the same query, through the ordinary client.
    expect(requested(await demo.gql('{ tickets(first: 7) { nodes { id } } }'))).toBe(7);
  });
});

describe('the timeline', () => {
  it('a page of 50 entries with their field changes and note revisions fits under the per-operation limit', async () => {
    const query = `query ($id: Int!) { ticket(id: $id) { timeline(first: 50) { nodes {
      ... on TicketNote { id seq at body author { id } revisions { id body at editor { id } } }
      ... on TicketChange { seq at via kind actor { kind name user { id } } changes { field from to } }
    } } } }`;
    const result = await demo.gql(query, { id: 1 });
    expect(result.errors).toBeUndefined();
    // The ticket 1; per entry the costlier member: a note 1 + author 1 + 10 revisions × (1 + editor 1) = 22
    // (a change: 1 + actor 1 + user 1 + at most 10 field changes = 13).
    expect(requested(result)).toBe(1 + 50 * 22);
    expect(
      requested(
        await demo.gql('query ($id: Int!) { ticketHistory(ticketId: $id, first: 100) { nodes { seq changes { field } actor { user { id } } } } }', { id: 1 }),
      ),
    ).toBe(100 * (1 + 10 + 2));
  });
});

describe("a requester's messages", () => {
  it("price their files at 20 (a mailed message keeps up to 20), a reply's at 5", async () => {
    const query = `query ($id: Int!) { ticket(id: $id) { timeline(first: 10) { nodes {
      ... on RequesterMessage { id attachments { id } }
      ... on TicketReply { id attachments { id } }
    } } } }`;
    const result = await demo.gql(query, { id: 1 });
    expect(result.errors).toBeUndefined();
    // The ticket 1; per entry the costlier member: a message 1 + 20 files = 21 (a reply: 1 + 5 = 6).
    expect(requested(result)).toBe(1 + 10 * 21);
  });
});
