/** A real HTTP receiver on 127.0.0.1 for webhook tests and the bench, and GraphQL helpers. */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestClient } from '../../src/testing/client.js';

export interface Received {
  /** The request path (tests give each endpoint its own). */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
  json: { type: string; timestamp: string; data: Record<string, any>; previous?: Record<string, any> };
}

export interface Receiver {
  url: string;
  received: Received[];
  /** How the next request is answered (status, body); default 200. */
  respond: (request: Received, index: number) => number | { status: number; body?: string; delayMs?: number };
  /** Resolves once `count` requests (in all) have arrived matching `filter`. */
  waitFor(count: number, filter?: (r: Received) => boolean, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(path = '/hook'): Promise<Receiver> {
  const received: Received[] = [];
  const waiters = new Set<() => void>();
  const receiver: Receiver = {
    url: '',
    received,
    respond: () => 200,
    async waitFor(count, filter = () => true, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const matching = received.filter(filter);
        if (matching.length >= count) return matching;
        if (Date.now() > deadline)
          throw new Error(`expected ${count} webhook requests, got ${matching.length}: ${JSON.stringify(received.map((r) => r.json.type))}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 50);
          waiters.add(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: Received['json'];
      try {
        json = JSON.parse(body);
      } catch {
        json = { type: 'UNPARSEABLE', timestamp: '', data: {} };
      }
      const request: Received = { path: req.url ?? '', headers: req.headers, body, at: performance.now(), json };
      const index = received.length;
      received.push(request);
      const answer = receiver.respond(request, index);
      const { status, body: text = 'ok', delayMs = 0 } = typeof answer === 'number' ? { status: answer } : answer;
      setTimeout(() => {
        res.writeHead(status, { 'content-type': 'text/plain' }).end(text);
        for (const wake of [...waiters]) wake();
        waiters.clear();
      }, delayMs);
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  return receiver;
}

export const WEBHOOK_FIELDS = 'id url events enabled disabledAt disabledReason consecutiveFailures previousSecretExpiresAt';
export const DELIVERY_FIELDS = 'id event messageId attempt statusCode succeeded durationMs error responseExcerpt createdAt';

export async function createWebhook(client: TestClient, url: string, events: string[]): Promise<{ secret: string; id: number }> {
  const res = await client.gql<{ createWebhook: { secret: string; webhook: { id: number } } }>(
    `mutation($input: WebhookInput!) { createWebhook(input: $input) { secret webhook { ${WEBHOOK_FIELDS} } } }`,
    { input: { url, events } },
  );
  if (!res.data?.createWebhook) throw new Error(`createWebhook failed: ${JSON.stringify(res.errors)}`);
  return { secret: res.data.createWebhook.secret, id: res.data.createWebhook.webhook.id };
}

export async function webhookState(client: TestClient, id: number): Promise<Record<string, any>> {
  const res = await client.gql<{ webhook: Record<string, any> }>(
    `query($id: Int!) { webhook(id: $id) { ${WEBHOOK_FIELDS} deliveries(first: 100) { nodes { ${DELIVERY_FIELDS} } pageInfo { endCursor hasNextPage } } } }`,
    { id },
  );
  const hook = res.data?.webhook;
  if (!hook) throw new Error(`webhook ${id} not listed: ${JSON.stringify(res)}`);
  return hook;
}
