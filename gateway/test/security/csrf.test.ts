/** CSRF and cross-site: forged requests of every kind a page can send change nothing; headers everywhere. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSignedIn, type TestGateway } from '../../src/testing/harness.js';
import type { TestClient } from '../../src/testing/client.js';
import { PNG, validTicket } from '../../src/testing/fixtures.js';
import { figure } from '../../src/testing/measure.js';

let gw: TestGateway;
let victim: TestClient;
beforeAll(async () => ([gw, victim] = await startSignedIn(0)));
afterAll(() => gw.destroy());

const EVIL = 'https://evil.example';
/** What a browser adds to a request a page on another site makes (modern browser, then an older one). */
const crossSite = (dest: string, mode: string) => ({ 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': mode, 'sec-fetch-dest': dest, referer: `${EVIL}/page` });
const sameSite = (dest: string, mode: string) => ({
  'sec-fetch-site': 'same-site',
  'sec-fetch-mode': mode,
  'sec-fetch-dest': dest,
  origin: 'http://other.127.0.0.1.nip.io',
});
const legacy = { referer: `${EVIL}/page` };

async function state(): Promise<string> {
  const [tickets, customers, macros, messages, me] = await Promise.all(
    ['/api/tickets/', '/api/customers/', '/api/macro/', '/api/messages/', '/api/auth/'].map((p) => victim.get(p)),
  );
  return JSON.stringify([tickets.body, customers.body, macros.body, messages.body, me.status]);
}

describe('cross-site requests', () => {
  it('forged links, images, forms, no-cors fetches and GraphQL posts change nothing', async () => {
    const ticket = (await victim.post('/api/tickets/create', validTicket(1))).body.id;
    const customer = (await victim.post('/api/customers/create', { name: 'Keep Me', email: 'keep-me@fulcrum.test' })).body.id;
    const macro = (await victim.post('/api/macro/create', { name: 'Keep me', description: 'keep' })).body.id;
    const message = (await victim.post('/api/messages/create/too/2', { message: 'keep me' })).body.id;
    const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
    const multipart = () => {
      const f = new FormData();
      f.append('image', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'x.png');
      return f;
    };
    const gqlMultipart = () => {
      const f = new FormData();
      f.append('operations', JSON.stringify({ query: 'mutation { createMacro(input: { name: "forged", description: "forged" }) { id } }', variables: {} }));
      f.append('map', '{}');
      return f;
    };
    const createMacro = JSON.stringify({ query: 'mutation { createMacro(input: { name: "forged", description: "forged" }) { id } }' });
    const deletes = [
      `/api/tickets/${ticket}/delete`,
      `/api/customers/${customer}/delete`,
      `/api/macro/${macro}/delete`,
      `/api/messages/${message}/delete`,
      '/api/auth/logout',
    ];

    const forged: { name: string; path: string; init: RequestInit }[] = [];
    for (const path of deletes) {
      forged.push({ name: `link ${path}`, path, init: { headers: crossSite('document', 'navigate') } });
      forged.push({ name: `img ${path}`, path, init: { headers: crossSite('image', 'no-cors') } });
      forged.push({ name: `same-site img ${path}`, path, init: { headers: sameSite('image', 'no-cors') } });
      forged.push({ name: `legacy-browser img ${path}`, path, init: { headers: legacy } });
      forged.push({ name: `sandboxed iframe ${path}`, path, init: { headers: { origin: 'null' } } });
    }
    const post = (headers: Record<string, string>, body: BodyInit, method = 'POST') => ({ method, headers: { origin: EVIL, ...headers }, body });
    const formHeaders = { ...crossSite('document', 'navigate'), 'content-type': 'application/x-www-form-urlencoded' };
    const textHeaders = { ...crossSite('empty', 'no-cors'), 'content-type': 'text/plain;charset=UTF-8' };
    forged.push(
      { name: 'form create customer', path: '/api/customers/create', init: post(formHeaders, form({ name: 'Forged', email: 'forged@evil.example' })) },
      {
        name: 'form create ticket',
        path: '/api/tickets/create',
        init: post(formHeaders, form({ title: 'forged', requester: '1', description: 'forged ticket' })),
      },
      { name: 'form login (login CSRF)', path: '/api/auth/login', init: post(formHeaders, form({ email: 'demo@fulcrum.app', password: 'fulcrum-demo' })) },
      { name: 'form multipart add-image', path: `/api/tickets/${ticket}/add-image`, init: post(crossSite('document', 'navigate'), multipart()) },
      {
        name: 'no-cors fetch text/plain create macro',
        path: '/api/macro/create',
        init: post(textHeaders, JSON.stringify({ name: 'forged', description: 'forged' })),
      },
      { name: 'no-cors fetch text/plain send message', path: '/api/messages/create/too/2', init: post(textHeaders, JSON.stringify({ message: 'forged' })) },
      { name: 'same-site multipart add-image', path: `/api/tickets/${ticket}/add-image`, init: post(sameSite('document', 'navigate'), multipart()) },
      {
        name: 'legacy-browser form create customer',
        path: '/api/customers/create',
        init: post({ 'content-type': 'application/x-www-form-urlencoded' }, form({ name: 'Forged', email: 'forged2@evil.example' })),
      },
      { name: 'text/plain GraphQL post', path: '/graphql', init: post(textHeaders, createMacro) },
      {
        name: 'form GraphQL post',
        path: '/graphql',
        init: post(formHeaders, form({ query: 'mutation { createMacro(input: { name: "forged", description: "forged" }) { id } }' })),
      },
      { name: 'multipart GraphQL post without preflight header', path: '/graphql', init: post(crossSite('document', 'navigate'), gqlMultipart()) },
      {
        name: 'GET GraphQL mutation (link)',
        path: `/graphql?query=${encodeURIComponent('mutation { logout }')}`,
        init: { headers: crossSite('document', 'navigate') },
      },
      {
        name: 'GET GraphQL mutation (img)',
        path: `/graphql?query=${encodeURIComponent('mutation { deleteMacro(id: ' + macro + ') { id } }')}`,
        init: { headers: crossSite('image', 'no-cors') },
      },
    );

    let changes = 0;
    const refusedStatuses: number[] = [];
    for (const attempt of forged) {
      const before = await state();
      const res = await victim.fetch(attempt.path, attempt.init);
      await res.arrayBuffer();
      refusedStatuses.push(res.status);
      const after = await state();
      if (after !== before) {
        changes++;
        console.error(`state changed by ${attempt.name} (${res.status})`);
      }
    }
    expect(changes).toBe(0);
    expect(refusedStatuses.every((s) => s >= 400)).toBe(true);
    figure(
      'cross-site state changes',
      `${changes} of ${forged.length} forged requests (links, images, forms, no-cors fetches, text/plain, form and multipart GraphQL posts)`,
    );
  });

  it('the app itself, and non-browser clients, still work', async () => {
    const sameOrigin = { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', origin: gw.url };
    const c = await gw.as(1);
    const created = await c.rest('POST', '/api/macro/create', { name: 'Mine', description: 'mine' }, sameOrigin);
    expect(created.status).toBe(201);
    expect((await c.get(`/api/macro/${created.body.id}/delete`, { 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    const ticket = (await c.rest('POST', '/api/tickets/create', validTicket(1), { origin: gw.url })).body.id;
    expect((await c.get(`/api/tickets/${ticket}/delete`, { referer: `${gw.url}/view/ticket/${ticket}` })).status).toBe(200);
    // A typed URL or bookmark (Sec-Fetch-Site: none) and curl (no headers) are not forgeries.
    const macro = (await c.post('/api/macro/create', { name: 'Typed', description: 'typed' })).body.id;
    expect((await c.get(`/api/macro/${macro}/delete`, { 'sec-fetch-site': 'none' })).status).toBe(200);
    const r = await c.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...sameOrigin },
      body: JSON.stringify({ query: '{ me { id } }' }),
    });
    expect(((await r.json()) as { data: { me: { id: number } } }).data.me.id).toBe(2);
    const up = await c.gqlUpload(
      'mutation($i: TicketInput!, $img: Upload) { createTicket(input: $i, image: $img) { id } }',
      { i: { title: 'ok', requesterId: 1, description: 'same origin upload' } },
      'img',
      { data: PNG },
    );
    expect(up.errors).toBeUndefined();
    expect((await c.get('/api/auth/logout', { 'sec-fetch-site': 'same-origin' })).status).toBe(200);
  });
});

describe('security headers', () => {
  it('every response carries CSP (frame-ancestors none), nosniff, X-Frame-Options and Referrer-Policy', async () => {
    const anon = gw.client();
    const requests: [string, RequestInit?][] = [
      ['/'],
      ['/view/tickets/all'],
      ['/api/auth/'],
      ['/api/nope'],
      ['/api/tickets/'],
      ['/images/1'],
      ['/assets/missing.js'],
      ['/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ me { id } }"}' }],
      ['/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":' }],
      ['/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email":' }],
      [
        '/api/auth/login',
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'x@y.z', password: 'p'.repeat(200_000) }) },
      ],
      ['/api/auth/logout', { headers: { 'sec-fetch-site': 'cross-site' } }],
    ];
    let checked = 0;
    for (const [path, init] of requests) {
      const res = await anon.fetch(path, init);
      await res.arrayBuffer();
      const h = res.headers;
      const csp = h.get('content-security-policy') ?? '';
      expect(csp, path).toMatch(/default-src 'self'/);
      expect(csp, path).toMatch(/frame-ancestors 'none'/);
      expect(csp, path).toMatch(/object-src 'none'/);
      expect(csp, path).not.toMatch(/unsafe-inline|unsafe-eval/);
      expect(h.get('x-content-type-options'), path).toBe('nosniff');
      expect(h.get('x-frame-options'), path).toBe('DENY');
      expect(h.get('referrer-policy'), path).toBe('same-origin');
      expect(h.get('x-powered-by'), path).toBeNull();
      checked++;
    }
    figure(
      'security headers',
      `${checked} of ${requests.length} response kinds (pages, API, errors, 413, GraphQL) carry CSP, nosniff, X-Frame-Options, Referrer-Policy`,
    );
  });
});
