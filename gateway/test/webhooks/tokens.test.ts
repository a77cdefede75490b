/**
 * Tokens and webhooks (docs/webhooks.md "Tokens and webhooks"): managing webhooks with an API token needs
 * the WEBHOOKS scope, and a webhook a token created or changed stops when that token is revoked or expires, its
 * queued retries included. On PostgreSQL + Redis with two gateways on one database (revoked on A, the next change
 * made through B); on SQLite with one gateway.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiToken, forkEm, rules } from '@fulcrum/schema';
import { startTestGateway, testDatabaseMode, type TestGateway } from '../../src/testing/harness.js';
import type { TestClient } from '../../src/testing/client.js';
import { validTicket } from '../../src/testing/fixtures.js';
import { bearerGql, createToken, REVOKE_TOKEN } from '../apiTokens/support.js';
import { createWebhook, startReceiver, WEBHOOK_FIELDS, webhookState, type Receiver } from './support.js';

const scaleOut = testDatabaseMode() === 'postgres';
const CREATE = `mutation($input: WebhookInput!) { createWebhook(input: $input) { secret webhook { ${WEBHOOK_FIELDS} } } }`;
const UPDATE = `mutation($id: Int!, $input: WebhookUpdateInput!) { updateWebhook(id: $id, input: $input) { ${WEBHOOK_FIELDS} } }`;

let A: TestGateway;
let B: TestGateway;
let demoA: TestClient;
let demoB: TestClient;
let receiver: Receiver;

beforeAll(async () => {
  // A retry 400 ms after a failed first attempt, so a test can watch a queued retry that must not be sent.
  const webhooks = { allowHosts: '127.0.0.1', retryDelaysMs: [400, 400], pollMs: 50 };
  A = await startTestGateway({ webhooks });
  B = scaleOut ? await startTestGateway({ webhooks, databaseUrl: A.options.databaseUrl, dataDir: mkdtempSync(join(tmpdir(), 'fulcrum-test-')) }) : A;
  demoA = await A.as(0);
  demoB = await B.as(0);
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  if (B !== A) await B?.destroy();
  await A?.destroy();
});

const at = (path: string) => (r: { path: string }) => r.path === `/hook/${path}`;
const createdTicket = (id: number) => (r: { path: string; json: { type: string; data: Record<string, any> } }) =>
  r.json.type === 'TICKET_CREATED' && r.json.data.id === id;
/** The states of a webhook's jobs once none is waiting or in progress (a retry sent ends `delivered`). */
async function settledJobs(webhookId: number): Promise<string[]> {
  for (const deadline = Date.now() + 15_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
    const jobs: { state: string }[] = await forkEm(A.orm).getKnex()('webhook_jobs').where('webhook_id', webhookId).select('state');
    if (jobs.every((j) => j.state === 'failed' || j.state === 'delivered')) return jobs.map((j) => j.state);
  }
  throw new Error(`the jobs of webhook ${webhookId} never settled`);
}
async function newTicketOnB(): Promise<number> {
  const res = await demoB.post('/api/tickets/create', validTicket(1));
  expect(res.status).toBe(201);
  return res.body.id as number;
}

describe(scaleOut ? 'two gateways on PostgreSQL + Redis' : 'one gateway on SQLite', () => {
  it('managing webhooks with a token needs the WEBHOOKS scope; reading them does not', async () => {
    const own = await createWebhook(demoA, `${receiver.url}/session`, ['TICKET_CREATED']);
    const write = await createToken(demoA, { name: 'write only', scopes: ['WRITE'] });
    expect(write.token.scopes).toEqual(['READ', 'WRITE']);
    const refusals = [
      [CREATE, { input: { url: `${receiver.url}/leak`, events: ['TICKET_CREATED'] } }],
      [UPDATE, { id: own.id, input: { url: `${receiver.url}/leak` } }],
      [UPDATE, { id: own.id, input: { enabled: false } }],
      ['mutation($id: Int!) { rotateWebhookSecret(id: $id) { secret } }', { id: own.id }],
      ['mutation($id: Int!) { sendTestWebhook(id: $id) { id } }', { id: own.id }],
      ['mutation($id: Int!) { deleteWebhook(id: $id) }', { id: own.id }],
    ] as const;
    for (const [query, variables] of refusals) {
      const r = await bearerGql(B.url, write.secret, query, variables);
      expect(r.errors?.[0]).toMatchObject({ message: rules.WEBHOOK_MESSAGES.tokenScope, extensions: { code: 'FORBIDDEN' } });
    }
    // Nothing changed, and a READ (or WRITE) token may still list the webhooks.
    const read = await createToken(demoA, { name: 'read', scopes: ['READ'] });
    const listed = await bearerGql(B.url, read.secret, '{ webhooks { id url enabled } }');
    expect(listed.data?.webhooks).toEqual([{ id: own.id, url: `${receiver.url}/session`, enabled: true }]);

    const hooks = await createToken(demoA, { name: 'hooks', scopes: ['WEBHOOKS'] });
    expect(hooks.token.scopes).toEqual(['READ', 'WRITE', 'WEBHOOKS']);
    const made = await bearerGql(B.url, hooks.secret, CREATE, { input: { url: `${receiver.url}/scoped`, events: ['TICKET_CREATED'] } });
    expect(made.errors).toBeUndefined();
    for (const id of [own.id, made.data!.createWebhook.webhook.id]) await demoA.gql('mutation($id: Int!) { deleteWebhook(id: $id) }', { id });
  });

  it('revoking a token on one gateway disables the webhooks it created or repointed; the next change through the other delivers nothing to them', async () => {
    const { secret, id: tokenId } = await createToken(demoA, { name: 'integration', scopes: ['WEBHOOKS'] });
    const created = await bearerGql(A.url, secret, CREATE, { input: { url: `${receiver.url}/created`, events: ['TICKET_CREATED'] } });
    const createdId = created.data!.createWebhook.webhook.id as number;
    // One the agent made signed in and the token repointed, and one the token never touched.
    const repointed = await createWebhook(demoA, `${receiver.url}/before`, ['TICKET_CREATED']);
    expect((await bearerGql(A.url, secret, UPDATE, { id: repointed.id, input: { url: `${receiver.url}/repointed` } })).errors).toBeUndefined();
    const untouched = await createWebhook(demoA, `${receiver.url}/untouched`, ['TICKET_CREATED']);

    // All three deliver a change made through B.
    const first = await newTicketOnB();
    for (const path of ['created', 'repointed', 'untouched']) await receiver.waitFor(1, (r) => at(path)(r) && createdTicket(first)(r));

    const revokedAt = Date.now();
    expect((await demoA.gql(REVOKE_TOKEN, { id: tokenId })).data?.revokeApiToken.revokedAt).toBeTruthy();
    for (const [id, enabled] of [
      [createdId, false],
      [repointed.id, false],
      [untouched.id, true],
    ] as const) {
      const state = await webhookState(demoB, id);
      expect(state.enabled).toBe(enabled);
      if (!enabled) {
        expect(state.disabledReason).toMatch(/^Disabled because the API token "integration", which created or last changed this webhook, was revoked at /);
        expect(new Date(state.disabledAt).getTime()).toBeGreaterThanOrEqual(revokedAt - 1000);
      }
    }

    const second = await newTicketOnB();
    // The untouched webhook receives it (so the event was fanned out and delivered); the token's two do not.
    await receiver.waitFor(1, (r) => at('untouched')(r) && createdTicket(second)(r));
    expect(receiver.received.filter((r) => (at('created')(r) || at('repointed')(r)) && createdTicket(second)(r))).toEqual([]);

    // Enabling it again signed in takes it over from the token: it delivers again.
    expect((await demoA.gql(UPDATE, { id: createdId, input: { enabled: true } })).data?.updateWebhook.enabled).toBe(true);
    const third = await newTicketOnB();
    await receiver.waitFor(1, (r) => at('created')(r) && createdTicket(third)(r));
    for (const id of [createdId, repointed.id, untouched.id]) await demoA.gql('mutation($id: Int!) { deleteWebhook(id: $id) }', { id });
  });

  it('a retry queued before the revocation is not sent', async () => {
    const { secret, id: tokenId } = await createToken(demoA, { name: 'retrying', scopes: ['WEBHOOKS'] });
    const bound = await bearerGql(A.url, secret, CREATE, { input: { url: `${receiver.url}/bound-retry`, events: ['TICKET_CREATED'] } });
    const boundId = bound.data!.createWebhook.webhook.id as number;
    const control = await createWebhook(demoA, `${receiver.url}/control-retry`, ['TICKET_CREATED']);
    // Both endpoints fail their first attempt; their retries are queued 400 ms later.
    const failedOnce = new Set<string>();
    receiver.respond = (r) => {
      const key = `${r.path} ${String(r.headers['webhook-id'])}`;
      if (!r.path.endsWith('-retry') || failedOnce.has(key)) return 200;
      failedOnce.add(key);
      return 500;
    };
    try {
      const ticket = await newTicketOnB();
      for (const path of ['bound-retry', 'control-retry']) await receiver.waitFor(1, (r) => at(path)(r) && createdTicket(ticket)(r));
      expect((await demoA.gql(REVOKE_TOKEN, { id: tokenId })).data?.revokeApiToken.revokedAt).toBeTruthy();
      // The control's retry arrives; the bound one's ends failed without being sent.
      await receiver.waitFor(2, (r) => at('control-retry')(r) && createdTicket(ticket)(r));
      expect(await settledJobs(boundId)).toEqual(['failed']);
      expect(receiver.received.filter((r) => at('bound-retry')(r))).toHaveLength(1);
    } finally {
      receiver.respond = () => 200;
    }
    for (const id of [boundId, control.id]) await demoA.gql('mutation($id: Int!) { deleteWebhook(id: $id) }', { id });
  });

  it('a token that expires stops its webhooks at the next delivery, its queued retries included', async () => {
    const { secret, id: tokenId } = await createToken(demoA, { name: 'short-lived', scopes: ['WEBHOOKS'] });
    const bound = await bearerGql(B.url, secret, CREATE, { input: { url: `${receiver.url}/expiring`, events: ['TICKET_CREATED'] } });
    const boundId = bound.data!.createWebhook.webhook.id as number;
    const control = await createWebhook(demoA, `${receiver.url}/control-expiry`, ['TICKET_CREATED']);
    const failedOnce = new Set<string>();
    receiver.respond = (r) => {
      const key = `${r.path} ${String(r.headers['webhook-id'])}`;
      if (!(r.path.endsWith('/expiring') || r.path.endsWith('/control-expiry')) || failedOnce.has(key)) return 200;
      failedOnce.add(key);
      return 500;
    };
    try {
      const ticket = await newTicketOnB();
      for (const path of ['expiring', 'control-expiry']) await receiver.waitFor(1, (r) => at(path)(r) && createdTicket(ticket)(r));
      // The token expires while its endpoint's retry is queued (no revocation, no event on the bus).
      const expiredAt = new Date(Date.now() - 1000);
      await forkEm(A.orm).nativeUpdate(ApiToken, { id: tokenId }, { expiresAt: expiredAt });
      await receiver.waitFor(2, (r) => at('control-expiry')(r) && createdTicket(ticket)(r));
      const next = await newTicketOnB();
      await receiver.waitFor(1, (r) => at('control-expiry')(r) && createdTicket(next)(r));
      expect(await settledJobs(boundId)).toEqual(['failed']);
      expect(receiver.received.filter((r) => at('expiring')(r))).toHaveLength(1);
      const state = await webhookState(demoA, boundId);
      expect(state.enabled).toBe(false);
      expect(state.disabledReason).toBe(
        `Disabled because the API token "short-lived", which created or last changed this webhook, expired at ${expiredAt.toISOString()}. Check its address, then enable it again signed in.`,
      );
    } finally {
      receiver.respond = () => 200;
    }
    for (const id of [boundId, control.id]) await demoA.gql('mutation($id: Int!) { deleteWebhook(id: $id) }', { id });
  });
});
