/**
 * Pricing fails closed: an operation the cost model cannot price is refused, never run at 0 points (the bundle once
 * priced everything 0 because the library threw, and the error was swallowed). The fault is planted in the running
 * gateway's own schema: `report`'s cost extension is made malformed (a string), as a typo in a decorator would make
 * it. The schema is built once per process (buildFulcrumSchema), so this in-process gateway serves the planted one.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildFulcrumSchema } from '@fulcrum/schema';
import { startTestGateway, type TestGateway } from '../../src/testing/harness.js';
import type { TestClient } from '../../src/testing/client.js';
import { REPORT_INPUT, bearerGql, createToken } from './support.js';

let gw: TestGateway;
let demo: TestClient;
beforeAll(async () => {
  gw = await startTestGateway({ logErrors: true });
  demo = await gw.as(0);
});
afterAll(() => gw?.destroy());

describe('a pricing failure refuses the operation', () => {
  it('a malformed cost extension: the operation is refused with a safe message, logged once each, and nothing runs', async () => {
    const { secret } = await createToken(demo, { name: 'priced', scopes: ['WRITE'] });
    const schema = await buildFulcrumSchema();
    const fields = [schema.getQueryType()!.getFields().report, schema.getMutationType()!.getFields().createTicket];
    const extensions = fields.map((field) => field.extensions as Record<string, unknown>);
    const originals = extensions.map((e) => e.flatCost);
    expect(originals).toEqual([100, undefined]);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    for (const e of extensions) e.flatCost = 'a hundred';
    try {
      const count = async () => (await demo.gql<{ tickets: { totalCount: number } }>('{ tickets(first: 1) { totalCount } }')).data!.tickets.totalCount;
      const before = await count();
      const query = `{ report(input: ${REPORT_INPUT}) { totals { backlog } } }`;
      const mutation = 'mutation { createTicket(input: { title: "Not run", requesterId: 1, description: "unpriced" }) { id } }';
      const refusals = [await demo.gql(query), await bearerGql(gw.url, secret, query), await demo.gql(mutation), await bearerGql(gw.url, secret, mutation)];
      for (const refused of refusals) {
        expect(refused.status).toBe(500);
        expect(refused.errors?.[0]).toMatchObject({ message: expect.stringMatching(/could not be priced/), extensions: { code: 'INTERNAL' } });
        expect(refused.data).toBeUndefined();
        expect(JSON.stringify(refused.errors)).not.toMatch(/flatCost|malformed|createTicket|report|\bat \w/);
      }
      expect(await count()).toBe(before);
      const logged = errors.mock.calls.filter((call) => String(call[0]).includes('graphql cost (operation refused)'));
      expect(logged).toHaveLength(refusals.length);
      expect(String(logged[0][1])).toContain('Query.report has a malformed flatCost extension');
      expect(JSON.stringify(errors.mock.calls.map((call) => String(call[1])))).not.toContain(secret);
    } finally {
      extensions.forEach((e, i) => (originals[i] === undefined ? delete e.flatCost : (e.flatCost = originals[i])));
      errors.mockRestore();
    }
    // Put right, the same query is priced and answered again.
    const answered = await demo.gql(`{ report(input: ${REPORT_INPUT}) { totals { backlog } } }`);
    expect(answered.errors).toBeUndefined();
    expect((answered as unknown as { extensions: { cost: { requested: number } } }).extensions.cost.requested).toBe(100);
  });
});
