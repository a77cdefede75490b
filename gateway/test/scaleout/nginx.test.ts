/**
 * deploy/nginx.conf, run for real: nginx (TLS with a throwaway self-signed certificate) in front of two gateway
 * processes on one PostgreSQL database and Redis, started with TRUST_PROXY=1 and COOKIE_SECURE=1 as
 * docs/deployment.md says. Only the gateway addresses, the listen ports and the certificate paths are swapped
 * for test ones. Runs in the PostgreSQL + Redis pass when an nginx binary is installed (it is not a dependency
 * of the product; the test says plainly when it skips for lack of one).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, REDIS_URL, testDatabaseMode } from '../../src/testing/harness.js';
import { TestClient } from '../../src/testing/client.js';
import { DEMO_ACCOUNTS } from '@fulcrum/schema';
import { figure, sleep } from '../../src/testing/measure.js';
import { freePort, spawnGateway, type GatewayProcess } from '../../src/testing/processes.js';
import { MESSAGE_EVENTS, openLive, untilLive, type Live } from '../../src/testing/wsClient.js';
import { ensureWebBuilt } from '../../../scripts/ensureWebBuilt.mjs';

const CONFIG = fileURLToPath(new URL('../../../deploy/nginx.conf', import.meta.url));
const NGINX =
  ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/local/nginx/sbin/nginx', '/opt/homebrew/bin/nginx'].find((p) => existsSync(p)) ??
  process.env.FULCRUM_TEST_NGINX;
const postgres = testDatabaseMode() === 'postgres';
if (postgres && !NGINX) console.log('[scale-out] deploy/nginx.conf not exercised: no nginx binary on this machine (set FULCRUM_TEST_NGINX to one).');

/** deploy/nginx.conf with test addresses: everything else (headers, timeouts, retries, limits) as shipped. */
export function renderConfig(source: string, o: { gateways: string[]; http: number; https: number; cert: string; key: string }): string {
  // Each upstream block's run of `server 10.0.0.x:4000 <options>;` lines becomes the test gateways.
  const upstreamServer = /^\s*server 10\.0\.0\.\d+:4000 (.*);$/;
  const lines: string[] = [];
  let inRun = false;
  let blocks = 0;
  for (const line of source.split('\n')) {
    const match = upstreamServer.exec(line);
    if (match && !inRun) {
      blocks++;
      lines.push(...o.gateways.map((g) => `    server ${g} ${match[1]};`));
    }
    inRun = !!match;
    if (!match) lines.push(line);
  }
  if (blocks === 0) throw new Error('deploy/nginx.conf: no upstream server lines found');
  let out = lines.join('\n');
  out = out.replace(/^\s*listen \[::\]:\d+.*$/gm, '');
  out = out.replace(/listen 80;/, `listen 127.0.0.1:${o.http};`).replace(/listen 443 ssl( http2)?;/, `listen 127.0.0.1:${o.https} ssl$1;`);
  out = out.replace(/ssl_certificate\s+\S+;/, `ssl_certificate ${o.cert};`).replace(/ssl_certificate_key\s+\S+;/, `ssl_certificate_key ${o.key};`);
  return out;
}

/** Messages `${prefix} 0`, `${prefix} 1`... sent one after another by each `run()` until `stopped()`, with every answer's status (0: none). */
function messageWriter(client: TestClient, prefix: string, stopped: () => boolean) {
  const writes: { text: string; status: number }[] = [];
  let n = 0;
  const ok = (w: { status: number }) => w.status === 200 || w.status === 201;
  return {
    async run() {
      while (!stopped()) {
        const text = `${prefix} ${n++}`;
        try {
          const res = await client.post('/api/messages/create/too/2', { message: text });
          writes.push({ text, status: res.status });
        } catch {
          writes.push({ text, status: 0 });
        }
      }
    },
    /** The acknowledged writes and the others. */
    outcome: () => ({ acked: writes.filter(ok), failed: writes.filter((w) => !ok(w)) }),
  };
}

describe.skipIf(!postgres || !NGINX)('deploy/nginx.conf in front of two gateways', () => {
  let database: { url: string; drop(): Promise<void> };
  let sql: pg.Client;
  let dir: string;
  let nginx: ChildProcess;
  let nginxLog = '';
  let gateways: GatewayProcess[] = [];
  let publicUrl: string;
  let httpPort: number;
  let sessionSecret: string;
  const lives: Live[] = [];
  const tlsBefore = process.env.NODE_TLS_REJECT_UNAUTHORIZED;

  beforeAll(async () => {
    // The gateways serve web/dist as `npm start` builds it (a no-op when it is current: `npm test` builds it first).
    ensureWebBuilt();
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0'; // the throwaway certificate below
    database = await createPostgresDatabase();
    sql = new pg.Client({ connectionString: database.url });
    await sql.connect();
    sessionSecret = randomBytes(32).toString('base64url');
    const env = { TRUST_PROXY: '1', COOKIE_SECURE: '1' };
    gateways = await Promise.all(['N1', 'N2'].map((name) => spawnGateway({ name, databaseUrl: database.url, redisUrl: REDIS_URL, sessionSecret, env })));

    dir = mkdtempSync(join(tmpdir(), 'fulcrum-nginx-'));
    // nginx workers drop to an unprivileged user when started as root: they must be able to write request bodies.
    chmodSync(dir, 0o755);
    for (const sub of ['logs', 'body', 'proxy', 'fcgi', 'uwsgi', 'scgi']) {
      mkdirSync(join(dir, sub));
      chmodSync(join(dir, sub), 0o777);
    }
    const cert = join(dir, 'cert.pem');
    const key = join(dir, 'key.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-keyout', key, '-out', cert], {
      stdio: 'ignore',
    });
    httpPort = await freePort();
    const httpsPort = await freePort();
    const site = renderConfig(readFileSync(CONFIG, 'utf8'), {
      gateways: gateways.map((g) => `127.0.0.1:${g.port}`),
      http: httpPort,
      https: httpsPort,
      cert,
      key,
    });
    writeFileSync(join(dir, 'fulcrum.conf'), site);
    writeFileSync(
      join(dir, 'nginx.conf'),
      `worker_processes 1;\npid ${dir}/nginx.pid;\nerror_log ${dir}/logs/error.log warn;\nevents { worker_connections 1024; }\n` +
        `http {\n  access_log off;\n  client_body_temp_path ${dir}/body;\n  proxy_temp_path ${dir}/proxy;\n  fastcgi_temp_path ${dir}/fcgi;\n  uwsgi_temp_path ${dir}/uwsgi;\n  scgi_temp_path ${dir}/scgi;\n  include ${dir}/fulcrum.conf;\n}\n`,
    );
    execFileSync(NGINX!, ['-t', '-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: 'pipe' });
    nginx = spawn(NGINX!, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], { stdio: ['ignore', 'pipe', 'pipe'] });
    nginx.stderr!.on('data', (c) => (nginxLog += String(c)));
    publicUrl = `https://127.0.0.1:${httpsPort}`;
    for (let i = 0; i < 100; i++) {
      try {
        await fetch(`${publicUrl}/api/auth/`);
        break;
      } catch {
        await sleep(50);
      }
    }
  }, 120_000);

  afterAll(async () => {
    await Promise.allSettled(lives.map((l) => l.dispose()));
    if (nginx && nginx.exitCode === null) {
      nginx.kill('SIGQUIT');
      await new Promise((resolve) => nginx.once('exit', resolve));
    }
    await Promise.allSettled(gateways.map((g) => g.stop()));
    await sql?.end();
    await database?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
    if (tlsBefore === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    else process.env.NODE_TLS_REJECT_UNAUTHORIZED = tlsBefore;
  }, 60_000);

  const signIn = (index: 0 | 1 | 2) => new TestClient(publicUrl).login(DEMO_ACCOUNTS[index].email, DEMO_ACCOUNTS[index].password);

  it('sends plain http to https', async () => {
    const res = await fetch(`http://127.0.0.1:${httpPort}/view/tickets/all`, { redirect: 'manual' });
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe(`https://127.0.0.1/view/tickets/all`);
  });

  it('signs in over https with a Secure cookie (COOKIE_SECURE + TRUST_PROXY), and the session works on every gateway', async () => {
    const res = await new TestClient(publicUrl).post('/api/auth/login', { email: DEMO_ACCOUNTS[0].email, password: DEMO_ACCOUNTS[0].password });
    expect(res.status).toBe(200);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('fulcrum.sid='));
    expect(cookie).toMatch(/;\s*Secure/i);
    expect(cookie).toMatch(/;\s*HttpOnly/i);
    const demo = await signIn(0);
    // Straight to each gateway, bypassing nginx, with the cookie nginx handed out.
    for (const g of gateways) {
      const direct = new TestClient(g.url);
      direct.setCookieHeader(demo.cookieHeader);
      expect((await direct.get('/api/auth/')).body).toMatchObject({ id: 1 });
    }
  });

  it('a browser-like websocket (Origin of the public address, through nginx) gets live messages; same-origin writes pass', async () => {
    const demo = await signIn(0);
    const marnie = await signIn(1);
    const socket = openLive(publicUrl, marnie.cookieHeader, { origin: publicUrl, rejectUnauthorized: false });
    lives.push(socket);
    await socket.connected;
    const events = socket.subscribe(MESSAGE_EVENTS);
    // A same-origin browser write carries Origin: it must match the Host nginx forwards.
    const send = (text: string) => demo.rest('POST', '/api/messages/create/too/2', { message: text }, { origin: publicUrl });
    await untilLive(
      events,
      async (text) => void expect((await send(text)).status).toBeLessThan(300),
      (d, text) => d.messageEvents.message?.text === text,
    );
    const crossSite = await demo.rest('POST', '/api/messages/create/too/2', { message: 'from elsewhere' }, { origin: 'https://evil.example' });
    expect(crossSite.status).toBe(403);
  });

  it("compression: the gateway's brotli copy of a script passes through untouched (Vary, a year of caching); JSON is gzipped by nginx", async () => {
    const html = await (await fetch(`${publicUrl}/`)).text();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script, 'index.html names its hashed script (web/dist is built)').toBeTruthy();
    const asset = await fetch(`${publicUrl}${script}`, { headers: { 'accept-encoding': 'br' } });
    await asset.arrayBuffer();
    expect(asset.headers.get('content-encoding')).toBe('br');
    expect(asset.headers.get('vary')).toMatch(/Accept-Encoding/i);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const demo = await signIn(0);
    const list = await fetch(`${publicUrl}/api/tickets/`, { headers: { cookie: demo.cookieHeader, 'accept-encoding': 'gzip' } });
    const tickets = (await list.json()) as unknown[];
    expect(tickets.length).toBeGreaterThan(5);
    expect(list.headers.get('content-encoding')).toBe('gzip');
  });

  it('an image upload near the 5 MiB limit reaches the gateway (no 413 from nginx)', async () => {
    const demo = await signIn(0);
    const big = Buffer.alloc(5 * 1024 * 1024 - 1024, 7);
    const res = await demo.upload('POST', '/api/tickets/1/add-image', { data: big, type: 'image/png' });
    // The gateway answers (JSON: the bytes are not an image); nginx did not cut the body off.
    expect(res.body).toEqual({ errors: { image: [expect.any(String)] } });
    expect(res.status).toBe(400);
  });

  it('rolling restart: a gateway stopped with SIGTERM under load and started again on its port', async () => {
    const demo = await signIn(0);
    const readFailures: string[] = [];
    let reads = 0;
    let stop = false;
    const reader = async () => {
      while (!stop) {
        try {
          const res = await demo.get('/api/macro/');
          reads++;
          if (res.status !== 200) readFailures.push(String(res.status));
        } catch (error) {
          readFailures.push(String(error));
        }
      }
    };
    const writer = messageWriter(demo, 'rolling', () => stop);
    const load = [reader(), reader(), writer.run(), writer.run()];
    await sleep(500);
    const old = gateways[1];
    old.child.kill('SIGTERM');
    expect(await old.exited).toEqual({ code: 0, signal: null }); // drained and exited cleanly
    const restarted = await spawnGateway({
      name: 'N2b',
      databaseUrl: database.url,
      redisUrl: REDIS_URL,
      sessionSecret,
      env: { TRUST_PROXY: '1', COOKIE_SECURE: '1', PORT: String(old.port) },
    });
    gateways[1] = restarted;
    await sleep(1000);
    stop = true;
    await Promise.all(load);
    await old.stop();

    const { acked, failed } = writer.outcome();
    const rows = await sql.query<{ message: string; n: number }>(
      "select message, count(*)::int as n from messages where message like 'rolling %' group by message",
    );
    expect(rows.rows.filter((r) => r.n > 1)).toEqual([]);
    const stored = new Set(rows.rows.map((r) => r.message));
    expect(acked.filter((w) => !stored.has(w.text))).toEqual([]);
    expect(readFailures).toEqual([]);
    // A write the client was told failed was never applied (drained requests are answered).
    expect(failed.filter((f) => stored.has(f.text))).toEqual([]);
    figure(
      'nginx, rolling restart of one of two gateways (SIGTERM, start again) under 2 readers and 2 writers',
      `${reads} reads, all 200; ${acked.length} writes acknowledged, all stored once; ${failed.length} writes answered with an error (${failed.map((f) => f.status).join(', ') || 'none'}), ${failed.filter((f) => stored.has(f.text)).length} of them stored`,
    );
    // The restarted gateway answers; nginx puts it back in rotation once fail_timeout (5 s) has passed since the
    // refused connection. The next gateway of a rolling restart must wait for that (docs/deployment.md), and so
    // does the next test, which kills the other one.
    expect((await restarted.client().get('/api/auth/')).status).toBe(401);
    await sleep(5500);
  }, 90_000);

  it('one gateway killed under load: requests move to the survivor, no write is applied twice, sockets reconnect through nginx', async () => {
    const demo = await signIn(0);
    const marnie = await signIn(1);
    const sockets = [0, 1, 2, 3].map(() => openLive(publicUrl, marnie.cookieHeader, { rejectUnauthorized: false }));
    lives.push(...sockets);
    await Promise.all(sockets.map((s) => s.connected));

    const readFailures: string[] = [];
    let readsCutOff = 0;
    let reads = 0;
    let stop = false;
    const reader = async () => {
      while (!stop) {
        try {
          const res = await demo.get('/api/tickets/');
          reads++;
          if (res.status !== 200) readFailures.push(`${res.status} ${JSON.stringify(res.body).slice(0, 80)}`);
        } catch {
          // The dead gateway was halfway through sending this response: nginx cannot retry a response it has
          // started to forward, so it cuts the connection (a browser sees a network error and retries).
          readsCutOff++;
        }
      }
    };
    const writer = messageWriter(demo, 'via nginx', () => stop);
    const load = [reader(), reader(), writer.run(), writer.run()];
    await sleep(1000);
    const [victim] = gateways;
    victim.child.kill('SIGKILL');
    await victim.exited;
    await sleep(2000);
    stop = true;
    await Promise.all(load);

    // Every read got its answer from a live gateway, except at most the one each reader had in flight on the
    // victim when it died.
    if (readFailures.length)
      console.log(
        `[nginx error.log, without the "no live upstreams" lines]\n${readFileSync(join(dir, 'logs', 'error.log'), 'utf8')
          .split('\n')
          .filter((l) => !l.includes('no live upstreams'))
          .slice(-25)
          .join('\n')}`,
      );
    expect(readFailures).toEqual([]);
    expect(readsCutOff).toBeLessThanOrEqual(2);
    const { acked, failed } = writer.outcome();
    // A POST in flight on the dead gateway may fail (502, or a cut connection) but is never replayed elsewhere.
    expect(failed.every((w) => w.status === 502 || w.status === 0)).toBe(true);
    expect(failed.length).toBeLessThanOrEqual(2);
    const rows = await sql.query<{ message: string; n: number }>(
      "select message, count(*)::int as n from messages where message like 'via nginx %' group by message",
    );
    expect(rows.rows.filter((r) => r.n > 1)).toEqual([]);
    const stored = new Set(rows.rows.map((r) => r.message));
    expect(acked.filter((w) => !stored.has(w.text))).toEqual([]);
    figure(
      'nginx, SIGKILL of one of two gateways under load (2 readers, 2 writers, 3 s)',
      `${acked.length} writes acknowledged (all stored, none twice), ${failed.length} in flight lost with an error; ${reads} reads answered 200, ${readsCutOff} cut off mid-response`,
    );

    // Sockets that were on the dead gateway closed; reconnecting through the same address lands on the survivor.
    const dropped = sockets.filter((s) => s.closes.length > 0);
    expect(dropped.length).toBeGreaterThan(0);
    const again = openLive(publicUrl, marnie.cookieHeader, { rejectUnauthorized: false });
    lives.push(again);
    await again.connected;
    const events = again.subscribe(MESSAGE_EVENTS);
    await untilLive(
      events,
      async (text) => void (await demo.post('/api/messages/create/too/2', { message: text })),
      (d, text) => d.messageEvents.message?.text === text,
    );
    expect(nginxLog).not.toMatch(/\[emerg\]/);
  }, 60_000);
});
