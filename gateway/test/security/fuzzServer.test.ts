/**
 * Fuzzing against a real server process (fuzzKit.ts holds what it shares with fuzz.test.ts): the unauthenticated
 * request shapes a security review found (an operationName that names no operation, a subscription over HTTP, a
 * Host header that is no host name), and malformed bodies (malformedBodies.ts: multipart without a boundary, cut
 * short or under another boundary, a type the route does not read, invalid or cut JSON, urlencoded junk, past every
 * limit) on every route that takes a body, same-site and cross-site; the process's log is read afterwards.
 * Figure: requests tried, 4xx with their message, 5xx (0), stack traces in answers (0) and in the log (0).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { getNamedType, getNullableType, isCompositeType } from 'graphql';
import { buildFulcrumSchema } from '@fulcrum/schema';
import { createPostgresDatabase, REDIS_URL, testDatabaseMode } from '../../src/testing/harness.js';
import { startServerProcess } from '../../src/testing/processes.js';
import { PNG } from '../../src/testing/fixtures.js';
import { figure } from '../../src/testing/measure.js';
import { clientsOf, dataOf } from '../../src/testing/client.js';
import { BODY_MESSAGES } from '../../src/http/appErrors.js';
import { malformedBody, rawRequest, uploadCutShort } from './malformedBodies.js';
import { check, failures, nastyString, REST_BODIES, RUNS, SEED, stats } from './fuzzKit.js';

describe('fuzzing', () => {
  describe('against a real server process', () => {
    let server: Awaited<ReturnType<typeof startServerProcess>>;
    let port: string;
    let cleanup: () => Promise<void>;
    beforeAll(async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'fulcrum-fuzz-'));
      const env: Record<string, string | undefined> = { DATA_DIR: dataDir, DATABASE_URL: undefined, REDIS_URL: undefined };
      const db = testDatabaseMode() === 'postgres' ? await createPostgresDatabase() : undefined;
      if (db) {
        env.DATABASE_URL = db.url;
        env.SESSION_SECRET = randomBytes(32).toString('base64url');
        if (process.env.FULCRUM_TEST_REDIS === '1') env.REDIS_URL = REDIS_URL;
      }
      server = await startServerProcess(env);
      port = new URL(server.url).port;
      cleanup = async () => {
        await server.stop();
        await db?.drop();
        rmSync(dataDir, { recursive: true, force: true });
      };
    }, 60_000);
    afterAll(() => cleanup?.());

    it('unauthenticated shapes get a clear 4xx from a real server, with no stack trace in the answer or the log', async () => {
      {
        const before = stats.requests;
        const counts = { unknownOperation: 0, subscription: 0, host: 0 };
        /** One request with exactly these headers (fetch would not send a Host of our choosing). */
        const raw = (method: string, path: string, headers: Record<string, string>, body?: string) => rawRequest(port, method, path, headers, body);
        const graphql = (body: unknown, headers: Record<string, string> = {}) =>
          raw('POST', '/graphql', { 'content-type': 'application/json', ...headers }, JSON.stringify(body));
        const expectRefused = (what: string, r: { status: number; text: string; type: string | null }, message: RegExp) => {
          check(what, r.status, r.text, r.type);
          expect(r.status, `${what}: ${r.text}`).toBe(400);
          expect((JSON.parse(r.text) as { errors: { message: string }[] }).errors[0].message, what).toMatch(message);
        };
        const name = fc.stringMatching(/^[_A-Za-z][_0-9A-Za-z]{0,12}$/);
        const documents = fc.constantFrom('{ __typename }', 'query { me { id } }', 'query A { __typename } query B { __typename }', 'mutation M { logout }');

        // An operationName that names no operation of the document: graphql-js's own 400, never a 500.
        await fc.assert(
          fc.asyncProperty(
            documents,
            fc.oneof(
              name,
              nastyString.filter((v) => v.length < 2000),
            ),
            async (query, operationName) => {
              if (['A', 'B', 'M'].includes(operationName)) return;
              counts.unknownOperation++;
              expectRefused(
                `operationName ${JSON.stringify(operationName).slice(0, 40)}`,
                await graphql({ query, operationName }),
                /^Unknown operation named|^Must provide operation name/,
              );
            },
          ),
          { numRuns: RUNS, seed: SEED },
        );
        // Any subscription field, named or not, over HTTP (with or without a bearer token that is no token).
        const schema = await buildFulcrumSchema();
        const subscriptions = Object.values(schema.getSubscriptionType()!.getFields()).map((f) => {
          const args = f.args.map((a) => `${a.name}: ${getNullableType(a.type).toString() === 'Int' ? '1' : '"x"'}`).join(', ');
          return `${f.name}${args ? `(${args})` : ''}${isCompositeType(getNamedType(f.type)) ? ' { __typename }' : ''}`;
        });
        await fc.assert(
          fc.asyncProperty(fc.constantFrom(...subscriptions), fc.option(name, { nil: undefined }), fc.boolean(), async (field, opName, bearer) => {
            counts.subscription++;
            const query = `subscription${opName ? ` ${opName}` : ''} { ${field} }`;
            const headers: Record<string, string> = bearer ? { authorization: `Bearer fulcrum_pat_${'x'.repeat(38)}` } : {};
            const r = await graphql({ query, operationName: opName }, headers);
            if (bearer && r.status === 401) return check(`subscription ${field} bearer`, r.status, r.text, r.type); // an unknown token is refused first
            expectRefused(`subscription ${field}`, r, /^Subscriptions are served over websockets/);
          }),
          { numRuns: RUNS, seed: SEED },
        );
        // A Host header that is no host name (a CSP separator in it), on every kind of route.
        const hostChar = fc.constantFrom(...[...'ab1.-:[]_~!$&()*+=@ /?#"<>{}|^`%'], "'", '\\');
        const badHost = fc
          .tuple(fc.string({ unit: hostChar, maxLength: 12 }), fc.constantFrom(';', ','), fc.string({ unit: hostChar, maxLength: 12 }))
          .map(([a, sep, b]) => `${a}${sep}${b}`);
        const routes: [string, string, string | undefined][] = [
          ['GET', '/api/auth/', undefined],
          ['POST', '/api/auth/login', JSON.stringify({ email: 'demo@fulcrum.app', password: 'x' })],
          ['POST', '/graphql', JSON.stringify({ query: '{ __typename }' })],
          ['GET', '/', undefined],
          ['GET', '/images/1', undefined],
          ['GET', '/graphiql', undefined],
          ['GET', '/no/such/page', undefined],
        ];
        await fc.assert(
          fc.asyncProperty(badHost, fc.constantFrom(...routes), async (host, [method, path, body]) => {
            counts.host++;
            const r = await raw(method, path, { host, ...(body ? { 'content-type': 'application/json' } : {}) }, body);
            expectRefused(`Host ${JSON.stringify(host)} ${method} ${path}`, r, /^The Host header is not a valid host name/);
          }),
          { numRuns: RUNS * 2, seed: SEED },
        );
        expect(failures).toEqual([]);
        // Still serving, and the whole log (start-up included) holds no stack frame and no logged error.
        expect((await raw('GET', '/api/auth/', {})).status).toBe(401);
        const log = server.output();
        expect(log).not.toMatch(/\n\s+at \S/);
        expect(log).not.toMatch(/\[fulcrum\]|Unexpected error|TypeError|Content-Security-Policy/);
        figure(
          'fuzzing, unauthenticated shapes',
          `${stats.requests - before} requests to a real server (${counts.unknownOperation} unknown operation names, ${counts.subscription} subscriptions over HTTP, ${counts.host} bad Host headers over ${routes.length} routes): all 400 with their message; stack traces in answers ${stats.leaks}, in the log 0`,
        );
      }
    }, 120_000);

    it('malformed bodies on every route that takes a body get 400 (413 past a limit) with their message, same-site and cross-site, and log nothing', async () => {
      const before = stats.requests;
      const logBefore = server.output().length;
      const demo = await clientsOf(server.url).as(0);
      const gql = async (query: string, variables: Record<string, unknown> = {}) => dataOf(await demo.gql(query, variables, { origin: server.url }));
      const ticketId = dataOf(
        await demo.gqlUpload(
          'mutation ($i: TicketInput!, $img: Upload) { createTicket(input: $i, image: $img) { id } }',
          { i: { title: 'Malformed', requesterId: 1, description: 'Fuzzed bodies.' } },
          'img',
          { data: PNG },
          { origin: server.url },
        ),
      ).createTicket.id as number;
      const token = new URL((await gql(`{ ticket(id: ${ticketId}) { requesterLink } }`)).ticket.requesterLink as string).pathname;
      const same = { origin: server.url };
      const made = async (path: string, body: unknown) =>
        (await demo
          .fetch(path, { method: 'POST', headers: { ...same, 'content-type': 'application/json' }, body: JSON.stringify(body) })
          .then((r) => r.json())) as { id: number };
      const users = (await demo.get('/api/users')).body as { id: number }[];
      const customer = await made('/api/customers/create', { name: 'Fuzz Customer', email: `fuzz${Date.now()}@example.test` });
      const macro = await made('/api/macro/create', { name: `Fuzz macro ${Date.now()}`, description: 'A macro to edit.' });
      const message = await made(`/api/messages/create/too/${users[1].id}`, { message: 'A message to edit.' });
      const routes: [method: string, path: string, signedIn: boolean][] = [
        ['POST', token, false],
        ['POST', '/graphql', false],
        ...REST_BODIES.map(([method, path]): [string, string, boolean] => [
          method,
          path.replace(
            ':id',
            String(
              {
                '/api/customers/edit/:id': customer.id,
                '/api/macro/edit/:id': macro.id,
                '/api/messages/create/too/:id': users[1].id,
                '/api/messages/edit/:id': message.id,
              }[path] ?? ticketId,
            ),
          ),
          !path.startsWith('/api/auth/'),
        ]),
        ['POST', `/api/tickets/${ticketId}/add-image`, true],
        ['PUT', `/api/tickets/${ticketId}/edit-image`, true],
      ];
      const shapes = new Map<string, number>();
      for (const [method, path, signedIn] of routes) {
        await fc.assert(
          fc.asyncProperty(malformedBody, fc.boolean(), async ({ shape, contentType, body }, crossSite) => {
            shapes.set(shape, (shapes.get(shape) ?? 0) + 1);
            const headers: Record<string, string> = {
              origin: crossSite ? 'https://evil.example' : server.url,
              ...(crossSite ? { 'sec-fetch-site': 'cross-site' } : {}),
              ...(contentType === undefined ? {} : { 'content-type': contentType }),
              ...(signedIn ? { cookie: demo.cookieHeader } : {}),
            };
            const r = await rawRequest(port, method, path, headers, body);
            const what = `${method} ${path.startsWith('/r/') ? '/r/<token>' : path} ${crossSite ? 'cross-site' : 'same-site'} ${shape} ${JSON.stringify(contentType)} ${JSON.stringify(body.subarray(0, 60).toString('latin1'))}`;
            check(what, r.status, r.text, r.type);
            // The REST facade refuses every cross-site write before reading it; login and signup answer a body that
            // fails validation with 401 and the field dict (REST-CONTRACT.md).
            const allowed = path.startsWith('/api/') && crossSite ? [403] : path.startsWith('/api/auth/') ? [400, 401, 413] : [400, 413];
            expect(allowed, `${what}: ${r.status} ${r.text.slice(0, 200)}`).toContain(r.status);
            if (path.startsWith('/r/')) expect(r.text, what).toMatch(/<p class="error" id="(answer|images)-error" role="alert">/);
            // GraphQL's errors, the REST facade's message or field dict (login and signup: the bare dict), each with its sentence.
            else expect(JSON.stringify((JSON.parse(r.text) as { errors?: unknown }).errors ?? JSON.parse(r.text)), what).toMatch(/"[^"]{3,}"/);
          }),
          { numRuns: RUNS, seed: SEED },
        );
      }
      // A signed-in upload cut short: before its operation is whole, a 400; once it runs, the operation's
      // BAD_USER_INPUT with the same message (never an internal error, never "too large"), and no ticket.
      const createTicket = {
        query: 'mutation ($i: TicketInput!, $image: Upload) { createTicket(input: $i, image: $image) { id } }',
        variables: { i: { title: 'Cut short', requesterId: 1, description: 'Never stored.' }, image: null },
      };
      const listed = async () => ((await demo.get('/api/tickets')).body as unknown[]).length;
      const ticketsBefore = await listed();
      const cut = { before: 0, running: 0 };
      await fc.assert(
        fc.asyncProperty(uploadCutShort(createTicket, PNG), async ({ shape, contentType, body }) => {
          shapes.set(shape, (shapes.get(shape) ?? 0) + 1);
          const headers = { origin: server.url, 'apollo-require-preflight': 'true', cookie: demo.cookieHeader, 'content-type': contentType! };
          const r = await rawRequest(port, 'POST', '/graphql', headers, body);
          const what = `POST /graphql signed in, ${shape} at byte ${body.length}`;
          check(what, r.status, r.text, r.type);
          const answer = JSON.parse(r.text) as { errors?: { message: string; extensions?: { code?: string } }[] };
          expect([200, 400], `${what}: ${r.text}`).toContain(r.status);
          cut[r.status === 200 ? 'running' : 'before']++;
          if (r.status === 200)
            expect(
              answer.errors?.map((e) => [e.extensions?.code, e.message]),
              what,
            ).toEqual([['BAD_USER_INPUT', BODY_MESSAGES.malformed]]);
          else expect(answer.errors?.[0]?.message, what).toMatch(/\w/);
        }),
        { numRuns: RUNS * 2, seed: SEED },
      );
      expect(await listed()).toBe(ticketsBefore);
      expect(failures).toEqual([]);
      // Nothing was stored from a refused body: no requester message, no account.
      expect((await gql(`{ ticket(id: ${ticketId}) { timeline(filter: REPLIES) { nodes { __typename } } } }`)).ticket.timeline.nodes).toEqual([]);
      expect(((await demo.get('/api/users')).body as unknown[]).length).toBe(users.length);
      // Still serving; a client's malformed body is not the server's error: not one log line for them, no stack.
      expect((await rawRequest(port, 'GET', '/api/auth/', {})).status).toBe(401);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const log = server.output().slice(logBefore);
      expect(log).not.toMatch(/\n\s+at \S/);
      expect(log).not.toMatch(/\[fulcrum\]|Unexpected end|Boundary not found|Internal server error/);
      const logLines = log.split('\n').filter(Boolean).length;
      figure(
        'fuzzing, malformed bodies',
        `${stats.requests - before} requests to a real server over ${routes.length} routes and signed-in uploads (${[...shapes].map(([s, n]) => `${n} ${s}`).join(', ')}), same-site and cross-site: all 400/413 with their message (401 login/signup per the contract, 403 cross-site /api); uploads cut short ${cut.before} times before their operation was whole (400) and ${cut.running} times once it ran (its BAD_USER_INPUT, nothing stored); 5xx ${stats.fiveHundreds}, stack traces in answers ${stats.leaks}, log lines ${logLines}`,
      );
    }, 180_000);
  });
});
