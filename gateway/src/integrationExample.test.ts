/**
 * The example integration (examples/integration) runs as an outside program against a real gateway: it reads
 * FULCRUM_URL and FULCRUM_TOKEN from its environment, pages through 1,000+ customers with its typed documents,
 * and receives a customer event over graphql-ws.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forkEm } from '@fulcrum/schema';
import { startTestGateway, type TestGateway } from './testing/harness.js';
import type { TestClient } from './testing/client.js';

const ROOT = resolve(import.meta.dirname, '../..');
let gw: TestGateway;
let demo: TestClient;
let credentials: Record<string, string>;

/** Starts the example; its stdout is one JSON object per line. */
function startExample(args: string[]): { child: ChildProcess; lines: AsyncIterator<string>; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'examples/integration/src/main.ts', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, FULCRUM_URL: gw.url, ...credentials },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  return { child, lines, exited };
}

async function nextJson(lines: AsyncIterator<string>): Promise<Record<string, unknown>> {
  const { value, done } = await lines.next();
  if (done) throw new Error('the example ended early');
  return JSON.parse(value) as Record<string, unknown>;
}

beforeAll(async () => {
  gw = await startTestGateway();
  demo = await gw.as(0);
  const em = forkEm(gw.orm);
  const now = new Date();
  const rows = Array.from({ length: 1000 }, (_, i) => ({ name: `Integration ${i}`, email: `integration-${i}@example.test`, owner_id: 1, created_at: now }));
  for (let i = 0; i < rows.length; i += 250)
    await em.getConnection().execute(
      em
        .getKnex()
        .insert(rows.slice(i, i + 250))
        .into('customers') as never,
    );
  // A READ token, made the way the web app's token page makes it (with the browser session).
  const created = await demo.gql('mutation { createApiToken(input: { name: "example integration", scopes: [READ] }) { secret } }');
  credentials = { FULCRUM_TOKEN: created.data!.createApiToken.secret };
}, 120_000);
afterAll(() => gw.destroy());

describe('examples/integration', () => {
  it('pages through every customer (1,000+) with its typed documents', async () => {
    const total = Number((await demo.gql('{ customers(first: 1) { totalCount } }')).data!.customers.totalCount);
    expect(total).toBeGreaterThanOrEqual(1000);
    const run = startExample([]);
    expect(await nextJson(run.lines)).toEqual({ viewer: 'Demo' });
    expect(await nextJson(run.lines)).toEqual({ customers: total, totalCount: total, pages: Math.ceil(total / 100) });
    expect(await run.exited).toBe(0);
  }, 60_000);

  it('receives customer events over graphql-ws', async () => {
    const run = startExample(['watch', '1']);
    try {
      expect(await nextJson(run.lines)).toEqual({ subscribed: 'customerEvents' });
      // The subscription is sent right after the socket is accepted: create customers until one is seen.
      const next = nextJson(run.lines);
      let created: number | undefined;
      const timer = setInterval(() => {
        void demo
          .gql(`mutation { createCustomer(input: { name: "Live One", email: "live-${Date.now()}@example.test" }) { id } }`)
          .then((r) => (created ??= r.data?.createCustomer.id));
      }, 300);
      const event = await next.finally(() => clearInterval(timer));
      expect(event).toMatchObject({ event: 'CREATED', name: 'Live One' });
      expect(await run.exited).toBe(0);
      expect(created).toBeDefined();
    } finally {
      run.child.kill();
    }
  }, 60_000);

  it('a wrong token is refused with UNAUTHENTICATED and a non-zero exit', async () => {
    credentials = { FULCRUM_TOKEN: 'fulcrum_pat_00000000000000000000000000000000000000' };
    const run = startExample([]);
    const printed: Record<string, unknown>[] = [];
    for (let line = await run.lines.next(); !line.done; line = await run.lines.next()) printed.push(JSON.parse(line.value));
    expect(printed.at(-1)).toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(printed.some((p) => 'customers' in p)).toBe(false);
    expect(await run.exited).toBe(1);
  }, 60_000);
});
