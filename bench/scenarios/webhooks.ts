/**
 * Scenario 9, webhooks (BENCH_ONLY=9):
 *
 * - 9a. Delivery lag at 100 events/s: a REST ticket create every 10 ms for BENCH_SECONDS (open loop: a write does
 *   not wait for the one before), a receiver on 127.0.0.1 (allowlisted) in this process; the lag of each event is
 *   "receiver got it" minus "write acknowledged", on this process's clock.
 * - 9b. The write path's cost: REST ticket creates at the bench's write concurrency with no webhook, then with one
 *   endpoint subscribed to TICKET_CREATED (delivering as the writes run), then with none again; the ratio is the
 *   second run's throughput to the mean of the two others (the goal: within 15 %, a ratio of at least 0.85).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { percentile, sleep } from '../../gateway/src/testing/measure.js';
import { SECONDS, WRITE_CONNECTIONS, failures, gateway, gql, load, login, rows, stop, tmp, withFailures } from '../context.js';
import { progress, type LoadResult, type LoadSpec } from '../lib.js';
import { fmtInt } from '../report.js';

interface WebhookBench {
  lag: { p50: number; p99: number; sent: number; events: number; delivered: number; ratePerSecond: number };
  none: LoadResult[];
  one: LoadResult;
  deliveredDuringLoad: number;
}

async function measureWebhooks(options: { dataDir: string; seconds: number; connections: number }): Promise<WebhookBench> {
  const arrivals = new Map<number, number>();
  let received = 0;
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      received++;
      try {
        const id = Number((JSON.parse(Buffer.concat(chunks).toString()) as { data: { id: number } }).data.id);
        if (!arrivals.has(id)) arrivals.set(id, at);
      } catch {
        /* not an event of ours */
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

  progress('9. webhooks: starting a gateway with 127.0.0.1 allowlisted');
  const gw = await gateway(options.dataDir, { env: { FULCRUM_WEBHOOK_ALLOW_HOSTS: '127.0.0.1' } });
  try {
    const cookie = await login(gw.url, 0);
    const customers = (await gql(gw.url, cookie, '{ customers(first: 1) { nodes { id } } }')).customers.nodes;
    const body = JSON.stringify({
      title: 'Bench hook',
      type: 'Incident',
      priority: 'High',
      requester: customers[0].id,
      apply_macro: 1,
      description: 'Created by the webhook benchmark.',
    });
    const create = (): Promise<{ id: number; ackedAt: number } | null> =>
      fetch(`${gw.url}/api/tickets/create`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body })
        .then(async (r) => (r.status === 201 ? { id: ((await r.json()) as { id: number }).id, ackedAt: performance.now() } : null))
        .catch(() => null);
    const spec: LoadSpec = {
      url: `${gw.url}/api/tickets/create`,
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body,
      connections: options.connections,
    };
    const register = async () =>
      (
        await gql(gw.url, cookie, 'mutation($input: WebhookInput!) { createWebhook(input: $input) { webhook { id } } }', {
          input: { url: hookUrl, events: ['TICKET_CREATED'] },
        })
      ).createWebhook.webhook.id as number;
    const unregister = (id: number) => gql(gw.url, cookie, 'mutation($id: Int!) { deleteWebhook(id: $id) }', { id });

    // 9b first (the lag run's endpoint would otherwise be registered): none, one, none.
    const none1 = await load(`9b. REST create, no webhook, ${options.connections} connections`, spec);
    let hook = await register();
    const before = received;
    const one = await load(`9b. REST create, one webhook, ${options.connections} connections`, spec);
    const deliveredDuringLoad = received - before;
    await unregister(hook);
    const none2 = await load(`9b. REST create, no webhook again, ${options.connections} connections`, spec);

    // 9a: 100 events/s, open loop.
    hook = await register();
    arrivals.clear();
    const writes: Promise<{ id: number; ackedAt: number } | null>[] = [];
    const started = performance.now();
    const total = options.seconds * 100;
    for (let i = 0; i < total; i++) {
      const due = started + i * 10;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      writes.push(create());
      if (i % 100 === 0) progress(`9a. webhook lag at 100 events/s: ${i} of ${total} writes`);
    }
    const acked = (await Promise.all(writes)).filter((w): w is { id: number; ackedAt: number } => w !== null);
    const rate = acked.length / ((performance.now() - started) / 1000);
    const deadline = performance.now() + 30_000;
    while (acked.some((w) => !arrivals.has(w.id)) && performance.now() < deadline) await sleep(50);
    const lags = acked.filter((w) => arrivals.has(w.id)).map((w) => Math.max(0, arrivals.get(w.id)! - w.ackedAt));
    await unregister(hook);
    return {
      lag: { p50: percentile(lags, 50), p99: percentile(lags, 99), sent: total, events: acked.length, delivered: lags.length, ratePerSecond: rate },
      none: [none1, none2],
      one,
      deliveredDuringLoad,
    };
  } finally {
    await stop(gw);
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
}

export async function webhooks(): Promise<void> {
  const w = await measureWebhooks({ dataDir: join(tmp, 'webhooks'), seconds: SECONDS, connections: WRITE_CONNECTIONS });
  rows.push({
    scenario: `9a. Webhooks: delivery lag, write acknowledged → receiver got it, REST ticket creates at ${w.lag.ratePerSecond.toFixed(0)} events/s, receiver on 127.0.0.1`,
    p50: w.lag.p50,
    p99: w.lag.p99,
    budget: 'report',
    met: null,
    note: `${w.lag.sent} writes sent at 100/s, ${w.lag.events} acknowledged (the rest refused or failed: see the gateway's output with BENCH_VERBOSE=1), ${w.lag.delivered} of them delivered`,
  });
  const noneRps = (w.none[0].rps + w.none[1].rps) / 2;
  const costRatio = w.one.rps / noneRps;
  rows.push({
    scenario: `9b. Webhooks: write path with one endpoint registered vs none, REST ticket create, ${WRITE_CONNECTIONS} connections`,
    rps: w.one.rps,
    p50: w.one.p50,
    p99: w.one.p99,
    value: `${costRatio.toFixed(3)} of the throughput without (${fmtInt(w.none[0].rps)} and ${fmtInt(w.none[1].rps)} req/s before and after)`,
    budget: 'within 15 % (≥ 0.85)',
    met: costRatio >= 0.85 && !failures(w.one),
    note: withFailures(w.one, `${w.deliveredDuringLoad.toLocaleString('en-US')} events delivered during the run`),
  });
}
