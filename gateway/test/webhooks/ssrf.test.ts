/**
 * The SSRF guard at registration, through GraphQL on a real gateway with no allowlist: every target below is
 * refused with a message that names the problem and what to do. Plus fast-check on the inputs: any URL string
 * and any events list ends in a webhook or a clear BAD_USER_INPUT, never anything else.
 */
import fc from 'fast-check';
import { validateWebhook } from '@fulcrum/schema/validation';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../../src/testing/harness.js';
import type { TestClient } from '../../src/testing/client.js';

const PUBLIC_ONLY = /webhooks may only reach public addresses\. To deliver to an endpoint on your own network, ask your administrator to allow this address\.$/;
const HTTPS_ONLY = /^URL must use https:\/\/\. For an http:\/\/ endpoint on your own network, ask your administrator to allow this address\.$/;

/** [target, what the message must say] */
const REFUSED: [string, RegExp][] = [
  ['https://127.0.0.1/hook', /^127\.0\.0\.1 is a loopback address/],
  ['https://127.8.9.10/hook', /loopback/],
  ['https://localhost/hook', /^127\.0\.0\.1 is a loopback address \(this machine\) \(localhost resolves to it\)/],
  ['https://2130706433/hook', /^127\.0\.0\.1 is a loopback/],
  ['https://0x7f.1/hook', /^127\.0\.0\.1 is a loopback/],
  ['https://017700000001/hook', /^127\.0\.0\.1 is a loopback/],
  ['https://127.1/hook', /^127\.0\.0\.1 is a loopback/],
  ['https://[::1]/hook', /^::1 is a loopback/],
  ['https://[::ffff:127.0.0.1]/hook', /^127\.0\.0\.1 is a loopback/],
  ['https://[0:0:0:0:0:ffff:7f00:1]/hook', /^127\.0\.0\.1 is a loopback/],
  ['https://[::127.0.0.1]/hook', /is a special-purpose address/],
  ['https://10.0.0.5/hook', /^10\.0\.0\.5 is a private-network address/],
  ['https://172.16.3.4/hook', /private-network/],
  ['https://192.168.1.1/hook', /private-network/],
  ['https://[::ffff:192.168.1.1]/hook', /^192\.168\.1\.1 is a private-network/],
  ['https://169.254.169.254/latest/meta-data/', /^169\.254\.169\.254 is a link-local address \(where cloud metadata services live\)/],
  ['https://[::ffff:169.254.169.254]/', /^169\.254\.169\.254 is a link-local/],
  ['https://[fe80::1]/hook', /link-local/],
  ['https://100.64.0.1/hook', /carrier-grade NAT/],
  ['https://224.0.0.1/hook', /multicast/],
  ['https://[ff02::1]/hook', /multicast/],
  ['https://0.0.0.0/hook', /unspecified/],
  ['https://0/hook', /unspecified/],
  ['https://[::]/hook', /unspecified/],
  ['https://255.255.255.255/hook', /broadcast/],
  ['https://[fd00::1]/hook', /unique-local/],
  ['https://[fc00::5]/hook', /unique-local/],
  ['https://192.0.2.10/hook', /reserved/],
  ['https://[64:ff9b::7f00:1]/hook', /special-purpose|reserved/],
  ['http://93.184.216.34/hook', HTTPS_ONLY],
  ['ftp://93.184.216.34/hook', /^URL must be an absolute https:\/\//],
  ['file:///etc/passwd', /^URL must be an absolute https:\/\//],
  ['javascript:alert(1)', /^URL must be an absolute https:\/\//],
  ['https://user:pass@93.184.216.34/hook', /must not contain a user name or password/],
  ['not a url', /^URL must be an absolute https:\/\//],
  ['https://nonexistent-host.invalid/hook', /does not resolve/],
];

describe('webhook SSRF guard at registration (no allowlist)', () => {
  let gateway: TestGateway;
  let demo: TestClient;
  beforeAll(async () => {
    gateway = await startTestGateway({ webhooks: {} });
    // A loaded machine can pause the client longer than the server's 5 s keep-alive; a request on a socket the
    // server is just closing would then fail with ECONNRESET (the keep-alive race), which is not what is tested here.
    gateway.server.keepAliveTimeout = 120_000;
    demo = await gateway.as(0);
  });
  afterAll(() => gateway?.destroy());

  const create = (url: unknown, events: unknown = ['TICKET_CREATED']) =>
    demo.gql('mutation($input: WebhookInput!) { createWebhook(input: $input) { secret webhook { id url } } }', { input: { url, events } });

  it(`refuses all ${REFUSED.length} targets, each with a clear message`, async () => {
    expect(REFUSED.length).toBeGreaterThanOrEqual(25);
    const failures: string[] = [];
    for (const [target, message] of REFUSED) {
      const res = await create(target);
      const error = res.errors?.[0];
      if (
        res.data?.createWebhook ||
        error?.extensions?.code !== 'BAD_USER_INPUT' ||
        !message.test(error.message) ||
        error.extensions?.fields?.url?.[0] !== error.message
      ) {
        failures.push(`${target}: ${JSON.stringify(res.data ?? error)}`);
      }
    }
    expect(failures).toEqual([]);
    // The address-class messages also say how to allow a LAN endpoint.
    expect((await create('https://10.1.2.3/')).errors?.[0].message).toMatch(PUBLIC_ONLY);
    expect((await demo.gql('{ webhooks { id } }')).data?.webhooks).toEqual([]);
  });

  it('accepts a public https address, and refuses unknown or missing events', async () => {
    const ok = await create('https://93.184.216.34/hook', ['TICKET_CREATED', 'CUSTOMER_DELETED']);
    expect(ok.data?.createWebhook.webhook.url).toBe('https://93.184.216.34/hook');
    const none = await create('https://93.184.216.34/hook', []);
    expect(none.errors?.[0].extensions?.fields).toEqual({ events: ['Choose at least one event.'] });
    await demo.gql('mutation($id: Int!) { deleteWebhook(id: $id) }', { id: ok.data!.createWebhook.webhook.id });
  });

  it('fast-check: any URL and events input ends in a webhook or a field error, never anything else; the service refuses what the check shared with the web form refuses, with its message', async () => {
    const hostLike = fc.oneof(
      fc.ipV4(),
      fc.ipV4Extended(),
      fc.ipV6().map((a) => `[${a}]`),
      fc.constantFrom('localhost', '0', '0x7f.1', '[::ffff:10.0.0.1]', '127.1'),
    );
    const url = fc.oneof(
      fc
        .tuple(fc.constantFrom('https://', 'http://', 'ftp://', 'HTTPS://', ''), hostLike, fc.constantFrom('', ':443', ':8080', ':0', ':99999'), fc.webPath())
        .map(([s, h, p, path]) => `${s}${h}${p}${path}`),
      fc.string({ maxLength: 60 }),
      fc.string({ minLength: 2040, maxLength: 2100 }).map((s) => `https://93.184.216.34/${s}`),
    );
    const events = fc.oneof(fc.subarray(['TICKET_CREATED', 'MACRO_DELETED', 'MESSAGE_UPDATED']), fc.array(fc.string({ maxLength: 20 }), { maxLength: 3 }));
    await fc.assert(
      fc.asyncProperty(url, events, async (u, e) => {
        const res = await create(u, e);
        const shared = validateWebhook({ url: u, events: e });
        if (res.data?.createWebhook) {
          expect(shared).toEqual({});
          expect(res.data.createWebhook.secret).toMatch(/^whsec_/);
          await demo.gql('mutation($id: Int!) { deleteWebhook(id: $id) }', { id: res.data.createWebhook.webhook.id });
          return;
        }
        const error = res.errors?.[0];
        // Events that are not enum values are refused by GraphQL itself; the rest by the service, per field.
        if (error?.extensions?.code === 'BAD_USER_INPUT' && error.extensions.fields) {
          expect(Object.keys(error.extensions.fields).every((f) => f === 'url' || f === 'events')).toBe(true);
          // The shared check's messages, field by field; a URL it passes may still be refused for its address.
          expect(error.extensions.fields).toMatchObject(shared);
          if (!shared.events) expect(error.extensions.fields.events).toBeUndefined();
        } else {
          expect(res.status).toBe(400);
          expect(error?.message).toMatch(/WebhookEventType|String/);
        }
      }),
      { numRuns: 80 },
    );
  }, 180_000);
});
