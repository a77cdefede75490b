/**
 * Without a session: every REST route, image and GraphQL root field answers 401 / UNAUTHENTICATED, and every
 * subscription is closed with 4403 (4401 when the subscribe frame comes before any acknowledgement).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLField,
  type GraphQLInputType,
} from 'graphql';
import { buildFulcrumSchema } from '@fulcrum/schema';
import { startSignedIn, type TestGateway } from '../../src/testing/harness.js';
import { figure } from '../../src/testing/measure.js';
import { openSocket } from '../../src/testing/wsClient.js';
import { restRoutes } from './accessKit.js';

let gw: TestGateway;
beforeAll(async () => ([gw] = await startSignedIn(0)));
afterAll(() => gw.destroy());

/** A minimal value for a GraphQL input type, so every root field can be called without a session. */
function sampleValue(type: GraphQLInputType, within: readonly string[] = []): unknown {
  const t = getNullableType(type);
  if (isListType(t)) return [sampleValue(t.ofType, within)];
  if (isEnumType(t)) return t.getValues()[0].value;
  if (isInputObjectType(t)) {
    // A recursive input (TicketCondition holds TicketConditions): its optional fields of a type being built are left out.
    const fields = Object.values(t.getFields()).filter((f) => isNonNullType(f.type) || !within.includes(getNamedType(f.type).name));
    return Object.fromEntries(fields.map((f) => [f.name, sampleValue(f.type, [...within, t.name])]));
  }
  if (isScalarType(t)) {
    if (t.name === 'Int' || t.name === 'Float') return 1;
    if (t.name === 'Boolean') return true;
    if (t.name === 'Upload') return null;
    return 'someone@fulcrum.test';
  }
  return null;
}

function operationFor(kind: 'query' | 'mutation', field: GraphQLField<unknown, unknown>): { query: string; variables: Record<string, unknown> } {
  const defs = field.args.map((a) => `$${a.name}: ${a.type.toString()}`).join(', ');
  const args = field.args.map((a) => `${a.name}: $${a.name}`).join(', ');
  const selection = isObjectType(getNamedType(field.type)) ? ' { __typename }' : '';
  const variables = Object.fromEntries(
    field.args.map((a) => [a.name, isNonNullType(a.type) || getNamedType(a.type).name !== 'Upload' ? sampleValue(a.type) : null]),
  );
  return { query: `${kind}${defs ? `(${defs})` : ''} { ${field.name}${args ? `(${args})` : ''}${selection} }`, variables };
}

describe('without a session', () => {
  const PUBLIC_REST = new Set(['POST /api/auth/login', 'POST /api/auth/signup', 'GET /api/auth/logout']);
  const PUBLIC_FIELDS = new Set(['Query.me', 'Mutation.login', 'Mutation.signup', 'Mutation.logout']);

  it('every REST route, image and GraphQL root field answers 401 / UNAUTHENTICATED, every subscription 4403', async () => {
    const anon = gw.client();
    let total = 0;
    const refused: string[] = [];
    const allowed: string[] = [];
    const routes = restRoutes(gw).filter((r) => !PUBLIC_REST.has(`${r.method} ${r.path}`));
    routes.push({ method: 'GET', path: '/images/:id' }, { method: 'GET', path: '/attachments/:id' });
    for (const r of routes) {
      const path = r.path.replace(/:(\w+)/g, (_m, name) => (name === 'email' ? 'someone%40fulcrum.test' : name === 'name' ? 'Someone' : '1'));
      const res = r.method === 'GET' ? await anon.get(path) : await anon.rest(r.method, path, {});
      total++;
      (res.status === 401 && (/^\/(images|attachments)\//.test(r.path) || res.body?.errors?.message === 'Unauthorized') ? refused : allowed).push(
        `${r.method} ${r.path} -> ${res.status}`,
      );
    }
    const schema = await buildFulcrumSchema();
    for (const [kind, type] of [
      ['query', schema.getQueryType()!],
      ['mutation', schema.getMutationType()!],
    ] as const) {
      for (const field of Object.values(type.getFields())) {
        if (PUBLIC_FIELDS.has(`${type.name}.${field.name}`)) continue;
        const { query, variables } = operationFor(kind, field);
        const res = await anon.gql(query, variables);
        total++;
        (res.errors?.[0]?.extensions?.code === 'UNAUTHENTICATED' ? refused : allowed).push(
          `${type.name}.${field.name} -> ${res.errors?.[0]?.extensions?.code ?? 'data'}`,
        );
      }
    }
    for (const field of Object.keys(schema.getSubscriptionType()!.getFields())) {
      const s = openSocket(gw.url);
      s.send({ type: 'connection_init' });
      s.send({ id: '1', type: 'subscribe', payload: { query: `subscription { ${field} { __typename } }` } });
      const closed = await s.closed;
      total++;
      // 4403 when the init is refused; 4401 when the subscribe frame arrives before any acknowledgement.
      ([4401, 4403].includes(closed.code) && !s.messages.some((m) => m.type === 'next') ? refused : allowed).push(`Subscription.${field} -> ${closed.code}`);
    }
    // me answers null without a session (SPEC: the shell loads the session first).
    expect((await anon.gql('{ me { id } }')).data).toEqual({ me: null });
    expect(allowed).toEqual([]);
    figure(
      'without a session',
      `${refused.length} of ${total} routes, root fields and subscriptions refused (${((100 * refused.length) / total).toFixed(0)} %)`,
    );
  });
});
