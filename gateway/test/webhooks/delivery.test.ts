/**
 * Webhook delivery end to end: a real gateway (SQLite, or PostgreSQL + Redis with FULCRUM_TEST_DATABASE=postgres),
 * a real receiver on 127.0.0.1 (allowlisted), signatures checked with the independent `standardwebhooks` package.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { startTestGateway, type TestGateway } from '../../src/testing/harness.js';
import type { TestClient } from '../../src/testing/client.js';
import { PNG, validTicket } from '../../src/testing/fixtures.js';
import { freePort } from '../../src/testing/processes.js';
import { createWebhook, startReceiver, webhookState, type Receiver } from './support.js';

const ALL_EVENTS = [
  'TICKET_CREATED',
  'TICKET_UPDATED',
  'TICKET_DELETED',
  'CUSTOMER_CREATED',
  'CUSTOMER_UPDATED',
  'CUSTOMER_DELETED',
  'MACRO_CREATED',
  'MACRO_UPDATED',
  'MACRO_DELETED',
  'MESSAGE_CREATED',
  'MESSAGE_UPDATED',
  'MESSAGE_DELETED',
];

function verify(secret: string, r: { body: string; headers: Record<string, unknown> }) {
  return new StandardWebhook(secret).verify(r.body, r.headers as Record<string, string>);
}

describe('webhook delivery', () => {
  let gateway: TestGateway;
  let demo: TestClient;
  let marnie: TestClient;
  let receiver: Receiver;

  beforeAll(async () => {
    gateway = await startTestGateway({ webhooks: { allowHosts: '127.0.0.1', retryDelaysMs: [200, 200, 200], pollMs: 200 } });
    demo = await gateway.as(0);
    marnie = await gateway.as(1);
    receiver = await startReceiver();
  });
  afterEach(async () => {
    receiver.respond = () => 200;
    for (const client of [demo, marnie]) await deleteAll(client);
  });
  afterAll(async () => {
    await receiver?.close();
    await gateway?.destroy();
  });

  // How soon is bench row 9a (delivery lag), not a bound here.
  it("a REST create reaches the endpoint signed, as TICKET_CREATED; only the owner's endpoints get it", async () => {
    const mine = await createWebhook(demo, `${receiver.url}/demo`, ALL_EVENTS);
    expect(mine.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const theirs = await createWebhook(marnie, `${receiver.url}/marnie`, ALL_EVENTS);
    const started = performance.now();
    const created = await demo.post('/api/tickets/create', validTicket(1));
    expect(created.status).toBe(201);
    const [got] = await receiver.waitFor(1, (r) => r.path === '/hook/demo' && r.json.type === 'TICKET_CREATED');
    expect(got.at).toBeGreaterThan(started);
    expect(verify(mine.secret, got)).toMatchObject({
      type: 'TICKET_CREATED',
      data: { id: created.body.id, title: 'Printer on fire', assigneeId: 1, requesterId: 1 },
    });
    expect(() => verify(theirs.secret, got)).toThrow();
    expect(got.headers['webhook-id']).toMatch(/^msg_/);
    expect(Math.abs(Number(got.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(5);
    expect(got.headers['content-type']).toBe('application/json');
    // Marnie may not read Demo's ticket: her endpoint got nothing about it.
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.received.filter((r) => r.headers['webhook-id'] === got.headers['webhook-id'])).toHaveLength(1);
    expect(receiver.received.filter((r) => r.path === '/hook/marnie' && r.json.type.startsWith('TICKET'))).toEqual([]);
    expect(verifiesWith(theirs.secret, got)).toBe(false);
  });

  function verifiesWith(secret: string, r: { body: string; headers: Record<string, unknown> }) {
    try {
      verify(secret, r);
      return true;
    } catch {
      return false;
    }
  }

  async function deleteAll(client: TestClient) {
    const res = await client.gql<{ webhooks: { id: number }[] }>('{ webhooks { id } }');
    for (const w of res.data!.webhooks) await client.gql('mutation($id: Int!) { deleteWebhook(id: $id) }', { id: w.id });
  }

  it('updates carry the changed fields with their previous values; REST and GraphQL writes give the same events', async () => {
    const hook = await createWebhook(demo, `${receiver.url}/changes`, ALL_EVENTS);
    const viaRest = await demo.post('/api/customers/create', { name: 'Rest Person', email: 'rest.person@example.com' });
    expect(viaRest.status).toBe(201);
    const viaGql = await demo.gql('mutation { createCustomer(input: { name: "Gql Person", email: "gql.person@example.com" }) { id } }');
    expect(viaGql.errors).toBeUndefined();
    const edited = await demo.put(`/api/customers/edit/${viaRest.body.id}`, { name: 'Rest Renamed', email: 'rest.person@example.com' });
    expect(edited.status).toBe(200);
    const ticket = await demo.post('/api/tickets/create', validTicket(1));
    const image = await demo.upload('POST', `/api/tickets/${ticket.body.id}/add-image`, { data: PNG });
    expect(image.status).toBe(201);
    const solved = await demo.gql('mutation($id: Int!) { setTicketStatus(id: $id, status: SOLVED) { id } }', { id: ticket.body.id });
    expect(solved.errors).toBeUndefined();
    const deleted = await demo.gql('mutation($id: Int!) { deleteTicket(id: $id) }', { id: ticket.body.id });
    expect(deleted.errors).toBeUndefined();
    const got = await receiver.waitFor(7, (r) => r.path === '/hook/changes');
    for (const r of got) verify(hook.secret, r);
    const byType = (t: string) => got.filter((r) => r.json.type === t).map((r) => r.json);
    const customers = byType('CUSTOMER_CREATED').map((e) => e.data);
    expect(customers.map((c) => c.name).sort()).toEqual(['Gql Person', 'Rest Person']);
    // Same shape through both doors.
    expect(Object.keys(customers[0]).sort()).toEqual(Object.keys(customers[1]).sort());
    const [update] = byType('CUSTOMER_UPDATED');
    expect(update.data).toMatchObject({ id: viaRest.body.id, name: 'Rest Renamed' });
    expect(update.previous).toEqual({ name: 'Rest Person' });
    const [imageUpdate, statusUpdate] = byType('TICKET_UPDATED').sort((a, b) => (a.previous?.status ? 1 : 0) - (b.previous?.status ? 1 : 0));
    expect(statusUpdate.previous).toMatchObject({ status: 'OPEN' });
    expect(statusUpdate.data.status).toBe('SOLVED');
    expect(imageUpdate.previous).toMatchObject({ image: null });
    expect(imageUpdate.data.image).toMatchObject({ mimeType: 'image/png', width: 40, height: 30 });
    expect(byType('TICKET_DELETED')[0].data).toMatchObject({ id: ticket.body.id, title: 'Printer on fire' });
  });

  it("messages reach both the sender's and the receiver's endpoints, and nobody else's", async () => {
    const bobbie = await gateway.as(2);
    const d = await createWebhook(demo, `${receiver.url}/m-demo`, ['MESSAGE_CREATED']);
    const m = await createWebhook(marnie, `${receiver.url}/m-marnie`, ['MESSAGE_CREATED']);
    const b = await createWebhook(bobbie, `${receiver.url}/m-bobbie`, ['MESSAGE_CREATED']);
    const sent = await demo.post('/api/messages/create/too/2', { message: 'hello Marnie' });
    expect(sent.status).toBe(201);
    const got = await receiver.waitFor(2, (r) => r.path.startsWith('/hook/m-'));
    await new Promise((r) => setTimeout(r, 500));
    const paths = receiver.received
      .filter((r) => r.path.startsWith('/hook/m-'))
      .map((r) => (verifiesWith(d.secret, r) ? 'demo' : verifiesWith(m.secret, r) ? 'marnie' : verifiesWith(b.secret, r) ? 'bobbie' : '?'));
    expect(paths.sort()).toEqual(['demo', 'marnie']);
    expect(got.map((r) => r.path).sort()).toEqual(['/hook/m-demo', '/hook/m-marnie']);
    expect(got[0].headers['webhook-id']).not.toBe(undefined);
    await deleteAll(bobbie);
  });

  it('a receiver that fails twice gets the third attempt with the same webhook-id; the log shows all three', async () => {
    const hook = await createWebhook(demo, `${receiver.url}/flaky`, ['MACRO_CREATED']);
    let failures = 0;
    receiver.respond = (r) => (r.path === '/hook/flaky' && failures++ < 2 ? { status: 503, body: 'try later' } : 200);
    const macro = await demo.post('/api/macro/create', { name: 'Flaky', description: 'retried' });
    expect(macro.status).toBe(201);
    const attempts = await receiver.waitFor(3, (r) => r.path === '/hook/flaky');
    receiver.respond = () => 200;
    expect(new Set(attempts.map((a) => a.headers['webhook-id'])).size).toBe(1);
    for (const a of attempts) expect(verify(hook.secret, a)).toMatchObject({ data: { id: macro.body.id, name: 'Flaky' } });
    // Same body every time, new timestamp and signature per attempt.
    expect(new Set(attempts.map((a) => a.body)).size).toBe(1);
    await new Promise((r) => setTimeout(r, 300));
    const state = await webhookState(demo, hook.id);
    const log = state.deliveries.nodes.filter((n: any) => n.event === 'MACRO_CREATED');
    expect(log.map((n: any) => [n.attempt, n.statusCode, n.succeeded])).toEqual([
      [3, 200, true],
      [2, 503, false],
      [1, 503, false],
    ]);
    expect(log[1].responseExcerpt).toBe('try later');
    expect(state.consecutiveFailures).toBe(0);
    expect(state.enabled).toBe(true);
  });

  it('410 Gone disables the endpoint at once, with the reason; redelivery waits for re-enabling', async () => {
    const hook = await createWebhook(demo, `${receiver.url}/gone`, ['MACRO_CREATED']);
    receiver.respond = (r) => (r.json.type === 'MACRO_CREATED' ? 410 : 200);
    await demo.post('/api/macro/create', { name: 'Gone', description: 'x' });
    await receiver.waitFor(1, (r) => r.json.type === 'MACRO_CREATED' && r.json.data.name === 'Gone');
    await new Promise((r) => setTimeout(r, 300));
    let state = await webhookState(demo, hook.id);
    expect(state.enabled).toBe(false);
    expect(state.disabledReason).toMatch(/410 Gone/);
    expect(state.deliveries.nodes).toHaveLength(1);
    const refused = await demo.gql('mutation($id: Int!) { redeliverWebhookDelivery(id: $id) { id } }', { id: state.deliveries.nodes[0].id });
    expect(refused.errors?.[0].message).toMatch(/enable it first/);
    receiver.respond = () => 200;
    const enabled = await demo.gql('mutation($id: Int!) { updateWebhook(id: $id, input: { enabled: true }) { enabled disabledReason } }', { id: hook.id });
    expect(enabled.data?.updateWebhook).toEqual({ enabled: true, disabledReason: null });
    const redelivered = await demo.gql<{ redeliverWebhookDelivery: any }>(
      'mutation($id: Int!) { redeliverWebhookDelivery(id: $id) { attempt statusCode succeeded messageId event } }',
      { id: state.deliveries.nodes[0].id },
    );
    expect(redelivered.data?.redeliverWebhookDelivery).toEqual({
      attempt: 2,
      statusCode: 200,
      succeeded: true,
      messageId: state.deliveries.nodes[0].messageId,
      event: 'MACRO_CREATED',
    });
    state = await webhookState(demo, hook.id);
    expect(state.deliveries.nodes).toHaveLength(2);
  });

  it('a run of failures past the threshold disables the endpoint, and says why', async () => {
    const local = await startTestGateway({
      webhooks: { allowHosts: '127.0.0.1', retryDelaysMs: [50, 50, 50, 50], pollMs: 100, disableAfterFailures: 3, disableAfterMs: 0 },
    });
    try {
      const client = await local.as(0);
      const hook = await createWebhook(client, `${receiver.url}/down`, ['MACRO_CREATED']);
      receiver.respond = (r) => (r.json.type === 'MACRO_CREATED' && r.json.data.name === 'Down' ? 500 : 200);
      await client.post('/api/macro/create', { name: 'Down', description: 'x' });
      await receiver.waitFor(3, (r) => r.json.type === 'MACRO_CREATED' && r.json.data.name === 'Down');
      await new Promise((r) => setTimeout(r, 500));
      const state = await webhookState(client, hook.id);
      expect(state.enabled).toBe(false);
      expect(state.disabledReason).toMatch(/^Disabled after 3 consecutive failed deliveries since .* \(last: HTTP 500\)\.$/);
      expect(receiver.received.filter((r) => r.json.type === 'MACRO_CREATED' && r.json.data.name === 'Down')).toHaveLength(3);
    } finally {
      receiver.respond = () => 200;
      await local.destroy();
    }
  });

  it('after a rotation both secrets sign for a day; the test send and its log entry', async () => {
    const hook = await createWebhook(demo, `${receiver.url}/rotate`, ['TICKET_CREATED']);
    const rotated = await demo.gql<{ rotateWebhookSecret: { secret: string; webhook: { previousSecretExpiresAt: string } } }>(
      'mutation($id: Int!) { rotateWebhookSecret(id: $id) { secret webhook { previousSecretExpiresAt } } }',
      { id: hook.id },
    );
    const fresh = rotated.data!.rotateWebhookSecret.secret;
    expect(fresh).not.toBe(hook.secret);
    const expires = new Date(rotated.data!.rotateWebhookSecret.webhook.previousSecretExpiresAt).getTime();
    expect(Math.abs(expires - Date.now() - 24 * 3600 * 1000)).toBeLessThan(60_000);
    const test = await demo.gql<{ sendTestWebhook: any }>(
      'mutation($id: Int!) { sendTestWebhook(id: $id) { event attempt statusCode succeeded durationMs responseExcerpt } }',
      { id: hook.id },
    );
    expect(test.data?.sendTestWebhook).toMatchObject({ event: 'WEBHOOK_TEST', attempt: 1, statusCode: 200, succeeded: true, responseExcerpt: 'ok' });
    const [got] = await receiver.waitFor(1, (r) => r.path === '/hook/rotate');
    expect(String(got.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verify(fresh, got)).toMatchObject({ type: 'WEBHOOK_TEST', data: { webhookId: hook.id } });
    expect(verify(hook.secret, got)).toMatchObject({ type: 'WEBHOOK_TEST' });
    // A tampered body fails verification with either secret.
    expect(() => verify(fresh, { ...got, body: got.body.replace('Fulcrum', 'Fulcrun') })).toThrow();
  });

  it('an endpoint that refuses the connection: the log says so once (the error code is not repeated)', async () => {
    const port = await freePort(); // nothing listens there
    const hook = await createWebhook(demo, `http://127.0.0.1:${port}/hook`, ['TICKET_CREATED']);
    const test = await demo.gql<{ sendTestWebhook: { statusCode: number | null; succeeded: boolean; error: string } }>(
      'mutation($id: Int!) { sendTestWebhook(id: $id) { statusCode succeeded error } }',
      { id: hook.id },
    );
    const { statusCode, succeeded, error } = test.data!.sendTestWebhook;
    expect({ statusCode, succeeded }).toEqual({ statusCode: null, succeeded: false });
    expect(error).toBe(`connect ECONNREFUSED 127.0.0.1:${port}`);
  });

  it('another agent cannot see, change, test or redeliver an endpoint', async () => {
    const hook = await createWebhook(demo, `${receiver.url}/private`, ['TICKET_CREATED']);
    expect((await marnie.gql('{ webhooks { id } }')).data?.webhooks).toEqual([]);
    for (const mutation of [
      'deleteWebhook(id: $id)',
      'rotateWebhookSecret(id: $id) { secret }',
      'sendTestWebhook(id: $id) { id }',
      'updateWebhook(id: $id, input: { enabled: false }) { id }',
    ]) {
      const res = await marnie.gql(`mutation($id: Int!) { ${mutation} }`, { id: hook.id });
      expect(res.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    }
    const test = await demo.gql<{ sendTestWebhook: { id: number } }>('mutation($id: Int!) { sendTestWebhook(id: $id) { id } }', { id: hook.id });
    const res = await marnie.gql('mutation($id: Int!) { redeliverWebhookDelivery(id: $id) { id } }', { id: test.data!.sendTestWebhook.id });
    expect(res.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const signedOut = await gateway.client().gql('{ webhooks { id } }');
    expect(signedOut.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
  });
});
