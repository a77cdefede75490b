/**
 * Property-based fuzzing (fast-check) of every REST body and path parameter and every GraphQL root field's
 * input: strings with NUL, quotes, emoji, 1 MB of text, wrong types, missing fields, raw bodies no JSON encoder
 * would produce, random upload bytes and broken GraphQL envelopes. What it shares with the fuzzing of a real server
 * process (fuzzServer.test.ts) is in fuzzKit.ts.
 * Figure: requests tried, 5xx answers (0), crashes (0), stack traces or internals in responses (0).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { getNamedType, getNullableType, isCompositeType, isEnumType, isInputObjectType, isListType, type GraphQLField, type GraphQLInputType } from 'graphql';
import { buildFulcrumSchema } from '@fulcrum/schema';
import { startSignedIn, type TestGateway } from '../../src/testing/harness.js';
import type { TestClient } from '../../src/testing/client.js';
import { PNG } from '../../src/testing/fixtures.js';
import { figure } from '../../src/testing/measure.js';
import { check, failures, MEGABYTE, nastyString, REST_BODIES, RUNS, SEED, stats } from './fuzzKit.js';

let gw: TestGateway;
let agent: TestClient;
beforeAll(async () => ([gw, agent] = await startSignedIn(1)));
afterAll(() => gw.destroy());

const anyValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { weight: 6, arbitrary: nastyString },
    { weight: 2, arbitrary: fc.integer() },
    { weight: 1, arbitrary: fc.constantFrom(0, -1, 1, 2, 3, 2 ** 31, 2 ** 53, -(2 ** 53), 1.5, Number.MAX_VALUE) },
    { weight: 1, arbitrary: fc.double() },
    { weight: 1, arbitrary: fc.boolean() },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 3 }) },
    { weight: 1, arbitrary: fc.dictionary(fc.constantFrom('__proto__', 'constructor', 'a', 'toString'), tie('value'), { maxKeys: 2 }) },
  ),
})).value;

/** A body with the route's keys, each missing, well-typed, or anything at all; sometimes extra keys. */
const bodyFor = (keys: string[]) =>
  fc
    .record(Object.fromEntries(keys.map((k) => [k, anyValue])), { requiredKeys: [] })
    .chain((b) =>
      fc.oneof(
        { weight: 8, arbitrary: fc.constant(b as unknown) },
        { weight: 1, arbitrary: anyValue },
        { weight: 1, arbitrary: fc.constant({ ...b, __proto__: { admin: true }, sender_id: 1, user_id: 1 }) },
      ),
    );
const pathSegment = fc.oneof(
  fc.constantFrom('1', '2', '3', '0', '-1', '1.5', '99999999999999999999', 'abc', '%00', '%2e%2e', '💥', '1%20', ' 1'),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
);

async function send(method: string, path: string, body: unknown) {
  const text = body === undefined ? undefined : JSON.stringify(body);
  const res = await agent.fetch(path, { method, headers: text === undefined ? {} : { 'content-type': 'application/json' }, body: text });
  const out = await res.text();
  check(`${method} ${path} ${String(text).slice(0, 80)}`, res.status, out, res.headers.get('content-type'));
}

const REST_PATHS = [
  '/api/tickets/:id',
  '/api/customers/:id',
  '/api/macro/:id',
  '/images/:id',
  '/api/customers/validate/:id/:id',
  '/api/tickets/:id/delete',
  '/api/customers/:id/delete',
  '/api/macro/:id/delete',
  '/api/messages/:id/delete',
];

describe('fuzzing', () => {
  it('every REST body and path parameter', async () => {
    for (const [method, path, keys] of REST_BODIES) {
      await fc.assert(
        fc.asyncProperty(bodyFor(keys), pathSegment, async (body, id) => {
          await send(method, path.replace(/:id/g, id), body);
        }),
        { numRuns: RUNS, seed: SEED },
      );
    }
    for (const path of REST_PATHS) {
      await fc.assert(
        fc.asyncProperty(pathSegment, pathSegment, async (a, b) => {
          await send('GET', path.replace(':id', a).replace(':id', b), undefined);
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
    }
    // Raw bodies no JSON encoder would produce.
    const raw = [
      '{',
      '{"title": "x",}',
      '[]',
      'null',
      '"str"',
      '{"a":'.repeat(5000),
      '\u0000',
      '{"title":"\\ud800"}',
      JSON.stringify({ description: MEGABYTE }),
    ];
    for (const text of raw) {
      for (const [method, path] of REST_BODIES) {
        const res = await agent.fetch(path.replace(/:id/g, '1'), { method, headers: { 'content-type': 'application/json' }, body: text });
        check(`${method} ${path} raw ${text.slice(0, 20)}`, res.status, await res.text(), res.headers.get('content-type'));
      }
    }
    // Upload bodies: random bytes, some dressed with an image signature.
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 2048 }),
      fc.uint8Array({ maxLength: 512 }).map((b) => Buffer.concat([PNG.subarray(0, 33), Buffer.from(b)])),
      fc.uint8Array({ maxLength: 512 }).map((b) => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from(b), Buffer.from([0xff, 0xd9])])),
    );
    await fc.assert(
      fc.asyncProperty(bytes, async (data) => {
        const r = await agent.upload('PUT', '/api/tickets/1/edit-image', { data: Buffer.from(data) });
        check('upload', r.status, JSON.stringify(r.body), r.headers.get('content-type'));
      }),
      { numRuns: RUNS * 2, seed: SEED },
    );
    expect(failures).toEqual([]);
  }, 120_000);

  it('every GraphQL root field input', async () => {
    const schema = await buildFulcrumSchema();
    /** Well-shaped values with nasty contents (which reach the resolvers), or anything at all (which must not). */
    // An input type may contain itself (TicketCondition's groups): below a few levels the value is cut off as null.
    const shaped = (type: GraphQLInputType, depth = 0): fc.Arbitrary<unknown> => {
      const t = getNullableType(type);
      if (depth > 6) return fc.constant(null);
      if (isListType(t)) return fc.array(shaped(t.ofType, depth + 1), { maxLength: 3 });
      if (isEnumType(t)) return fc.oneof(fc.constantFrom(...t.getValues().map((v) => v.value)), nastyString);
      if (isInputObjectType(t))
        return fc.record(Object.fromEntries(Object.values(t.getFields()).map((f) => [f.name, shaped(f.type, depth + 1)])), { requiredKeys: [] });
      if (t.name === 'Int') return fc.oneof(fc.integer({ min: -3, max: 50 }), fc.constantFrom(2 ** 31, -(2 ** 31) - 1, 1.5, 2 ** 53));
      if (t.name === 'Boolean') return fc.boolean();
      if (t.name === 'Upload') return fc.constant(null);
      return nastyString;
    };
    const selection = (field: GraphQLField<unknown, unknown>) => (isCompositeType(getNamedType(field.type)) ? ' { __typename }' : '');
    let fields = 0;
    for (const [kind, type] of [
      ['query', schema.getQueryType()!],
      ['mutation', schema.getMutationType()!],
    ] as const) {
      for (const field of Object.values(type.getFields())) {
        if (field.name === 'logout') continue; // would end the fuzzing session; its input is empty anyway
        fields++;
        const defs = field.args.map((a) => `$${a.name}: ${a.type.toString()}`).join(', ');
        const args = field.args.map((a) => `${a.name}: $${a.name}`).join(', ');
        const query = `${kind}${defs ? `(${defs})` : ''} { ${field.name}${args ? `(${args})` : ''}${selection(field)} }`;
        const variables = fc.record(
          Object.fromEntries(field.args.map((a) => [a.name, fc.oneof({ weight: 3, arbitrary: shaped(a.type) }, { weight: 1, arbitrary: anyValue })])),
          { requiredKeys: [] },
        );
        await fc.assert(
          fc.asyncProperty(variables, async (vars) => {
            const res = await agent.fetch('/graphql', {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ query, variables: vars }),
            });
            check(`${type.name}.${field.name} ${JSON.stringify(vars).slice(0, 120)}`, res.status, await res.text(), res.headers.get('content-type'));
          }),
          { numRuns: RUNS, seed: SEED },
        );
        // Values inlined into the document itself (string escapes, NUL, emoji) rather than variables.
        await fc.assert(
          fc.asyncProperty(
            nastyString.filter((s) => s.length < 5000),
            async (s) => {
              const inline = `${kind} { ${field.name}${field.args.length ? `(${field.args.map((a) => `${a.name}: ${JSON.stringify(s)}`).join(', ')})` : ''}${selection(field)} }`;
              const res = await agent.fetch('/graphql', {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ query: inline }),
              });
              check(`${type.name}.${field.name} inline`, res.status, await res.text(), res.headers.get('content-type'));
            },
          ),
          { numRuns: Math.ceil(RUNS / 3), seed: SEED },
        );
      }
    }
    // Broken envelopes.
    for (const body of [
      '{',
      '[]',
      '{"query": 1}',
      '{"query": "{ me { id } }", "variables": "x"}',
      '{"query": "{ me { id } }", "operationName": {}}',
      '{"query": "\\u0000"}',
      JSON.stringify({ query: `{ me { id } }${' '.repeat(1024 * 1024)}` }),
    ]) {
      const res = await agent.fetch('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      check(`graphql envelope ${body.slice(0, 30)}`, res.status, await res.text(), res.headers.get('content-type'));
    }
    expect(failures).toEqual([]);
    // Still serving: no fault took the process down.
    expect((await agent.get('/api/auth/')).status).toBe(200);
    figure(
      'fuzzing',
      `${stats.requests} requests (${REST_BODIES.length} REST bodies, ${REST_PATHS.length} REST paths, uploads, ${fields} GraphQL root fields; ${RUNS} runs each, seed ${SEED}): 5xx ${stats.fiveHundreds}, crashes 0, stack traces or internals in responses ${stats.leaks}, non-JSON answers ${stats.nonJson}`,
    );
  }, 120_000);
});
