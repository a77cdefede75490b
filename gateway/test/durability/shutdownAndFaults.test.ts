/**
 * SIGTERM drains (in-flight requests finish, websockets close cleanly, the database closes) and faults never
 * take the process down. Both run the real server as `npm start` runs it: the gateway bundle
 * (gateway/bundle.mjs), under plain node.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { DEMO_ACCOUNTS } from '@fulcrum/schema';
import { TestClient } from '../../src/testing/client.js';
import { PNG, validTicket } from '../../src/testing/fixtures.js';
import { REDIS_URL, createPostgresDatabase, testDatabaseMode } from '../../src/testing/harness.js';
import { figure, sleep } from '../../src/testing/measure.js';
import { openAckedSocket } from '../../src/testing/wsClient.js';
import { startServerProcess, type StartedProcess as ServerProcess } from '../../src/testing/processes.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** A fresh data folder, and on the PostgreSQL pass a fresh database and Redis. */
async function environment() {
  const dataDir = mkdtempSync(join(tmpdir(), 'fulcrum-proc-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const env: Record<string, string | undefined> = { DATA_DIR: dataDir, DATABASE_URL: undefined, REDIS_URL: undefined };
  let sql: (text: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;
  if (testDatabaseMode() === 'postgres') {
    const db = await createPostgresDatabase();
    cleanups.push(() => db.drop());
    env.DATABASE_URL = db.url;
    env.SESSION_SECRET = randomBytes(32).toString('base64url'); // required with a shared database
    if (process.env.FULCRUM_TEST_REDIS === '1') env.REDIS_URL = REDIS_URL;
    const { default: pg } = await import('pg');
    sql = async (text, params = []) => {
      const c = new pg.Client({ connectionString: db.url });
      await c.connect();
      try {
        return (await c.query(text, params)).rows;
      } finally {
        await c.end();
      }
    };
  } else {
    sql = async (text, params = []) => {
      const db = new Database(join(dataDir, 'fulcrum.sqlite'));
      try {
        const statement = db.prepare(text.replace(/\$\d+/g, '?'));
        return statement.reader ? (statement.all(...params) as Record<string, unknown>[]) : (statement.run(...params), []);
      } finally {
        db.close();
      }
    };
  }
  return { dataDir, env, sql };
}

async function start(env: Record<string, string | undefined>, preload?: string): Promise<{ server: ServerProcess; demo: TestClient }> {
  const server = await startServerProcess(env, { preload });
  cleanups.unshift(() => {
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  });
  const demo = await new TestClient(server.url).login(DEMO_ACCOUNTS[0].email, DEMO_ACCOUNTS[0].password);
  return { server, demo };
}

/** A multipart upload sent in two halves with a pause between, so it is in flight while the test acts. */
function trickledUpload(
  url: string,
  path: string,
  cookie: string,
  parts: { name: string; value: string | Buffer; filename?: string }[],
  method = 'PUT',
  headers: Record<string, string> = {},
) {
  const boundary = `----fulcrum${Date.now()}`;
  const body = Buffer.concat([
    ...parts.map((p) =>
      Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"\r\nContent-Type: image/png` : ''}\r\n\r\n`,
        ),
        Buffer.isBuffer(p.value) ? p.value : Buffer.from(p.value),
        Buffer.from('\r\n'),
      ]),
    ),
    Buffer.from(`--${boundary}--\r\n`),
  ]);
  const { hostname, port } = new URL(url);
  let finish!: () => void;
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(
      {
        hostname,
        port,
        path,
        method,
        headers: { cookie, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': body.length, ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.write(body.subarray(0, body.length - 40));
    finish = () => req.end(body.subarray(body.length - 40));
  });
  return { response, finish: () => finish() };
}

describe('SIGTERM', () => {
  it('drains: in-flight requests finish, websockets close with 1001, new connections are refused, the database closes', async () => {
    const { dataDir, env, sql } = await environment();
    const { server, demo } = await start(env);
    const ticket = (await demo.post('/api/tickets/create', validTicket(1))).body.id;
    const socket = await openAckedSocket(server.url, demo.cookieHeader);
    socket.send({ id: 't', type: 'subscribe', payload: { query: 'subscription { ticketEvents { id } }' } });

    const rest = trickledUpload(server.url, `/api/tickets/${ticket}/edit-image`, demo.cookieHeader, [{ name: 'image', value: PNG, filename: 'a.png' }]);
    const gql = trickledUpload(
      server.url,
      '/graphql',
      demo.cookieHeader,
      [
        {
          name: 'operations',
          value: JSON.stringify({
            query: 'mutation($i: TicketInput!, $img: Upload) { createTicket(input: $i, image: $img) { id } }',
            variables: { i: { title: 'in flight', requesterId: 1, description: 'sent across a SIGTERM' }, img: null },
          }),
        },
        { name: 'map', value: JSON.stringify({ 0: ['variables.img'] }) },
        { name: '0', value: PNG, filename: 'b.png' },
      ],
      'POST',
      { 'apollo-require-preflight': 'true' },
    );
    await sleep(300);

    const t0 = Date.now();
    server.child.kill('SIGTERM');
    const closed = await socket.closed;
    await sleep(300);
    const refused = await fetch(`${server.url}/api/auth/`).then(
      () => false,
      () => true,
    );
    rest.finish();
    gql.finish();
    const [restRes, gqlRes] = await Promise.all([rest.response, gql.response]);
    const exit = await server.exited;
    const ms = Date.now() - t0;

    expect(closed.code).toBe(1001);
    expect(refused).toBe(true);
    expect(restRes.status).toBe(201);
    expect(JSON.parse(gqlRes.body).data.createTicket.id).toBeTypeOf('number');
    expect(exit.code).toBe(0);
    expect(server.output()).toMatch(/SIGTERM, draining/);
    const newId = JSON.parse(gqlRes.body).data.createTicket.id;
    const rows = await sql('select t.id, i.byte_size from tickets t join ticket_images i on i.ticket_id = t.id where t.id in ($1, $2)', [ticket, newId]);
    expect(rows).toHaveLength(2);
    let closedDb = '';
    if (testDatabaseMode() === 'postgres') {
      const [{ n }] = await sql('select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
      expect(n).toBe(0);
      closedDb = 'no PostgreSQL connection left';
    } else {
      // A clean close checkpoints the WAL into the database file and removes it; a crash leaves it behind.
      const wal = join(dataDir, 'fulcrum.sqlite-wal');
      expect(!existsSync(wal) || statSync(wal).size === 0).toBe(true);
      closedDb = 'SQLite WAL checkpointed and removed';
    }
    figure(
      'SIGTERM drain',
      `2 of 2 in-flight uploads completed (REST 201, GraphQL ticket ${newId}); websocket closed ${closed.code}; new connections refused; exit code ${exit.code} after ${ms} ms; ${closedDb}`,
    );
  }, 120_000);
});

describe('faults', () => {
  it('throwing routes and resolvers, a broken database and process-level faults never take the process down', async () => {
    const { env, sql } = await environment();
    const { server, demo } = await start(env, './gateway/test/durability/faultInjector.ts');
    let faults = 0;
    let fiveHundreds = 0;
    const leaks: string[] = [];
    const hit = async (what: string, run: () => Promise<{ status: number; text: string }>) => {
      faults++;
      const r = await run();
      if (r.status >= 500) fiveHundreds++;
      if (/SQLITE|no such table|relation .* does not exist|select |\.ts:\d+|node_modules/i.test(r.text)) leaks.push(`${what}: ${r.text.slice(0, 200)}`);
      return r;
    };
    const rest = async (path: string, init?: RequestInit, client = demo) => {
      const res = await client.fetch(path, init);
      return { status: res.status, text: await res.text() };
    };
    const gql = (query: string, client = demo) =>
      rest('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) }, client);

    // Take tables away underneath the running server: every query on them throws inside a route or resolver.
    await sql('alter table customers rename to customers_gone');
    await sql('alter table macros rename to macros_gone');
    for (let round = 0; round < 5; round++) {
      await hit('GET customers', () => rest('/api/customers/'));
      await hit('GET customer', () => rest('/api/customers/1'));
      await hit('create customer', () =>
        rest('/api/customers/create', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Broken', email: `broken-${round}@x.test` }),
        }),
      );
      await hit('GET macros', () => rest('/api/macro/'));
      await hit('create ticket', () =>
        rest('/api/tickets/create', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(validTicket(1)) }),
      );
      await hit('gql customers', () => gql('{ customers { nodes { id } } }'));
      await hit('gql ticket fields', () => gql('{ tickets { nodes { id requester { name } macro { name } } } }'));
      await hit('gql createMacro', () => gql('mutation { createMacro(input: { name: "broken", description: "x" }) { id } }'));
    }
    // Then the session store itself: every request fails before any route runs, websockets too. With a session the
    // gateway has not read yet: one it has read is answered from memory for a few seconds (session/ormSessionStore.ts).
    const cold = await new TestClient(server.url).login(DEMO_ACCOUNTS[1].email, DEMO_ACCOUNTS[1].password);
    await sql('alter table sessions rename to sessions_gone');
    for (let round = 0; round < 3; round++) {
      await hit('session store REST', () => rest('/api/tickets/', undefined, cold));
      await hit('session store GraphQL', () => gql('{ me { id } }', cold));
      faults++;
      const s = openAckedSocket(server.url, cold.cookieHeader).then(
        (x) => (x.ws.close(), 'open'),
        () => 'refused',
      );
      expect(await s).toBe('refused');
    }
    // And faults outside any request.
    server.child.kill('SIGUSR2');
    faults += 3;
    await sleep(300);
    expect(server.output()).toMatch(/injected 3 process faults/);

    await sql('alter table sessions_gone rename to sessions');
    await sql('alter table customers_gone rename to customers');
    await sql('alter table macros_gone rename to macros');
    // A field resolver that throws under a live subscription: the socket gets INTERNAL, never the SQL.
    const live = await openAckedSocket(server.url, demo.cookieHeader);
    live.send({ id: 'c', type: 'subscribe', payload: { query: 'subscription { customerEvents { id customer { name owner { username } } } }' } });
    await sleep(300);
    await sql('alter table users rename to users_gone');
    const liveAnswer = await hit('live field resolver', async () => {
      const created = await demo.post('/api/customers/create', { name: 'Live Fault', email: 'live-fault@x.test' });
      expect(created.status).toBe(201);
      return { status: 200, text: JSON.stringify((await live.next('next')).payload) };
    });
    await sql('alter table users_gone rename to users');
    expect(liveAnswer.text).toContain('Internal server error');
    expect(liveAnswer.text).toContain('INTERNAL');
    live.ws.close();
    // A write that fails inside the database: the error's SQL carries the new account's argon2 hash, and must
    // reach the log without it.
    if (testDatabaseMode() === 'postgres') {
      await sql("create function fulcrum_fault() returns trigger language plpgsql as $$ begin raise exception 'injected fault'; end $$");
      await sql('create trigger fulcrum_fault before insert on users for each row execute function fulcrum_fault()');
    } else {
      await sql("create trigger fulcrum_fault before insert on users begin select raise(abort, 'injected fault'); end");
    }
    for (let round = 0; round < 3; round++) {
      await hit('signup into a failing table', () =>
        rest('/api/auth/signup', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: `fault-${round}@x.test`, username: `fault${round}`, password: 'secret-password' }),
        }),
      );
    }
    await sql('drop trigger fulcrum_fault' + (testDatabaseMode() === 'postgres' ? ' on users' : ''));
    // API tokens: a lookup that fails inside the database (its SQL holds the token's hash, the request its secret),
    // and a token insert that fails (the SQL holds the new hash). Neither may reach the log.
    const createToken = 'mutation { createApiToken(input: { name: "fault", scopes: [READ] }) { secret } }';
    const token: string = JSON.parse((await gql(createToken)).text).data.createApiToken.secret;
    const tokenHash = createHash('sha256').update(token).digest('hex');
    await sql('alter table api_tokens rename to api_tokens_gone');
    for (let round = 0; round < 3; round++) {
      await hit('token lookup in a missing table', () =>
        rest('/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, cookie: '' },
          body: JSON.stringify({ query: '{ me { id } }' }),
        }),
      );
    }
    await sql('alter table api_tokens_gone rename to api_tokens');
    if (testDatabaseMode() === 'postgres') {
      await sql('create trigger fulcrum_fault before insert on api_tokens for each row execute function fulcrum_fault()');
    } else {
      await sql("create trigger fulcrum_fault before insert on api_tokens begin select raise(abort, 'injected fault'); end");
    }
    for (let round = 0; round < 3; round++) await hit('token insert into a failing table', () => gql(createToken));
    await sql('drop trigger fulcrum_fault' + (testDatabaseMode() === 'postgres' ? ' on api_tokens' : ''));
    // Still the same process, and serving normally again.
    expect(server.child.exitCode).toBeNull();
    expect(server.child.signalCode).toBeNull();
    expect((await demo.get('/api/customers/')).status).toBe(200);
    expect((await demo.gql('{ customers { nodes { id } } macros { nodes { id } } }')).data?.customers.nodes.length).toBeGreaterThan(0);
    expect((await demo.post('/api/customers/create', { name: 'After', email: 'after-faults@x.test' })).status).toBe(201);
    expect(leaks).toEqual([]);
    const log = server.output();
    expect(log).toMatch(/unhandled rejection/);
    expect(log).toMatch(/uncaught exception/);
    expect(log).toMatch(/POST \/api\/auth\/signup:.*injected fault/);
    expect(log).not.toMatch(/\$argon2|secret-password/);
    expect(log).toMatch(/POST \/graphql:.*(no such table|does not exist)/);
    expect(log).not.toContain(token);
    expect(log).not.toContain(token.slice(12));
    expect(log).not.toContain(tokenHash);
    expect(log).not.toMatch(/fulcrum_pat_[0-9A-Za-z]/);
    const redactedTokens = (log.match(/\[redacted token hash\]/g) ?? []).length;
    expect(redactedTokens).toBeGreaterThan(0);
    const redacted = (log.match(/\[redacted hash\]/g) ?? []).length;
    figure(
      'faults',
      `${faults} faults injected (${fiveHundreds} HTTP 500s, the GraphQL ones INTERNAL errors, the websockets refused; no internals in any answer); process exits: 0; serving normally afterwards; password hashes in the log: 0 (${redacted} redacted); API token secrets and hashes in the log: 0 (${redactedTokens} hashes redacted)`,
    );
    server.child.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);
  }, 120_000);
});
