/**
 * The requester page's budgets (docs/security.md), through real gateways over HTTP on 127.0.0.1, SQLite or
 * PostgreSQL + Redis (the counters then in Redis): at the published values, 30 answers an hour per link and per
 * client address (the 31st is 429 with Retry-After and the page's sentence, the text kept, nothing stored); the
 * bytes of files per link an hour and per ticket in all (smaller values, set as an operator would, so a test does not
 * upload 50 MB); and the guess budget, which refuses unknown tokens past 50 wrong ones from an address (429 with
 * Retry-After) but never a known link.
 */
import { mkdtempSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_AUTH_LIMITS, rules, type AuthLimits } from '@fulcrum/schema';
import { startTestGateway, testDatabaseMode, TEST_AUTH_LIMITS, type TestGateway } from '../../src/testing/harness.js';
import { dataOf } from '../../src/testing/client.js';
import { PNG } from '../../src/testing/fixtures.js';

const gateways: TestGateway[] = [];
afterEach(async () => {
  await Promise.all(gateways.splice(0).map((g) => g.destroy()));
});
afterAll(async () => {
  await Promise.all(gateways.map((g) => g.destroy()));
});

async function gateway(limits: Partial<AuthLimits>): Promise<TestGateway> {
  const gw = await startTestGateway({ authLimits: { ...TEST_AUTH_LIMITS, ...limits } });
  gateways.push(gw);
  return gw;
}

/** A ticket of Demo's and its requester link. */
async function ticketWithLink(gw: TestGateway, title: string): Promise<{ id: number; link: string }> {
  const demo = await gw.as(0);
  const made = await demo.gqlUpload(
    'mutation ($input: TicketInput!, $image: Upload) { createTicket(input: $input, image: $image) { id } }',
    { input: { title, requesterId: 1, description: 'Budgets.' } },
    'image',
    { data: PNG },
  );
  const id = dataOf(made).createTicket.id as number;
  return { id, link: dataOf(await demo.gql(`{ ticket(id: ${id}) { requesterLink } }`)).ticket.requesterLink as string };
}

function answer(link: string, body: string, images = 0): Promise<Response> {
  const form = new FormData();
  form.append('body', body);
  for (let i = 0; i < images; i++) form.append('images', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), `shot-${i}.png`);
  return fetch(link, { method: 'POST', body: form, redirect: 'manual' });
}

async function stored(gw: TestGateway, ticketId: number): Promise<{ messages: number; bytes: number }> {
  const conn = gw.orm.em.fork().getConnection();
  const [m] = await conn.execute<{ n: number | string }[]>('select count(*) as n from requester_messages where ticket_id = ?', [ticketId]);
  const [f] = await conn.execute<{ n: number | string | null }[]>(
    'select sum(byte_size) as n from reply_attachments where ticket_id = ? and requester_message_id is not null',
    [ticketId],
  );
  return { messages: Number(m.n), bytes: Number(f.n ?? 0) };
}

/** A 429 of the answer form: Retry-After in whole seconds within the hour, the page's sentence, the text kept. */
async function expectRefusedAnswer(res: Response, sentence: string, draft: string): Promise<void> {
  expect(res.status).toBe(429);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 3600).toBe(true);
  const page = await res.text();
  expect(page).toContain(sentence);
  expect(page).toContain(`>${draft}</textarea>`);
}

describe('answers an hour (published values)', () => {
  it('30 answers per link: the 31st is 429 with Retry-After, nothing stored; the address has spent its 30 on another link too', async () => {
    const gw = await gateway({
      requesterAnswersPerLink: DEFAULT_AUTH_LIMITS.requesterAnswersPerLink,
      requesterAnswersPerIp: DEFAULT_AUTH_LIMITS.requesterAnswersPerIp,
    });
    expect(DEFAULT_AUTH_LIMITS.requesterAnswersPerLink).toBe(30);
    const { id, link } = await ticketWithLink(gw, 'Chatty');
    for (let i = 1; i <= 30; i++) expect((await answer(link, `answer ${i}`)).status).toBe(303);
    const refused = await answer(link, 'answer 31');
    await expectRefusedAnswer(refused, 'Your message was not sent: too many messages or images came through this page in the last hour.', 'answer 31');
    expect(await stored(gw, id)).toEqual({ messages: 30, bytes: 0 });
    // The page itself still shows (reading is not an answer).
    expect((await fetch(link)).status).toBe(200);
    // Another link from the same address: the address's own budget (30) is spent as well.
    const other = await ticketWithLink(gw, 'Other');
    const byAddress = await answer(other.link, 'first here');
    await expectRefusedAnswer(byAddress, 'Please try again in', 'first here');
    expect(await stored(gw, other.id)).toEqual({ messages: 0, bytes: 0 });
  });
});

describe('bytes of files', () => {
  it('per link an hour, then per ticket in all: past either, 429 with Retry-After and nothing stored; text alone still goes', async () => {
    const gw = await gateway({ requesterBytesPerLink: 3 * PNG.length, requesterTicketBytes: 4 * PNG.length });
    const { id, link } = await ticketWithLink(gw, 'Pictures');
    for (let i = 1; i <= 3; i++) expect((await answer(link, `picture ${i}`, 1)).status).toBe(303);
    await expectRefusedAnswer(await answer(link, 'picture 4', 1), 'Please try again in', 'picture 4');
    expect(await stored(gw, id)).toEqual({ messages: 3, bytes: 3 * PNG.length });
    expect((await answer(link, 'words only')).status).toBe(303);

    // A new link has a budget of its own, but the ticket holds at most 4 files' worth.
    const demo = await gw.as(0);
    const next = dataOf(await demo.gql(`mutation { revokeRequesterLink(ticketId: ${id}) }`)).revokeRequesterLink as string;
    expect((await answer(next, 'picture 4 again', 1)).status).toBe(303);
    const full = await answer(next, 'picture 5', 1);
    await expectRefusedAnswer(full, rules.MESSAGES.requesterTicketFull, 'picture 5');
    expect(await stored(gw, id)).toEqual({ messages: 5, bytes: 4 * PNG.length });
  });
});

describe('the guess budget', () => {
  it('past 50 wrong tokens from an address, an unknown token is 429 with Retry-After; a known link still answers', async () => {
    const gw = await gateway({ tokenFailuresPerIp: DEFAULT_AUTH_LIMITS.tokenFailuresPerIp });
    expect(DEFAULT_AUTH_LIMITS.tokenFailuresPerIp).toBe(50);
    const { id, link } = await ticketWithLink(gw, 'Guessed at');
    for (let i = 0; i < 50; i++) expect((await fetch(`${gw.url}/r/${String(i).padStart(43, 'x')}`)).status).toBe(404);
    const unknown = await fetch(`${gw.url}/r/${'y'.repeat(43)}`);
    expect(unknown.status).toBe(429);
    expect(Number(unknown.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await unknown.text()).not.toContain('Guessed at');
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Guessed at');
    expect((await answer(link, 'still here')).status).toBe(303);
    expect((await fetch(`${link}?file=1`)).status).toBe(404);
    expect(await stored(gw, id)).toEqual({ messages: 1, bytes: 0 });
    // Unknown ones stay refused, POSTs too.
    expect((await answer(`${gw.url}/r/${'z'.repeat(43)}`, 'let me in')).status).toBe(429);
  });
});

describe.skipIf(testDatabaseMode() !== 'postgres' || process.env.FULCRUM_TEST_REDIS !== '1')('two gateways sharing Redis', () => {
  it("one link's 30 answers are counted together, whichever gateway takes them: the 31st is 429 on either", async () => {
    const limits = { ...TEST_AUTH_LIMITS, requesterAnswersPerLink: DEFAULT_AUTH_LIMITS.requesterAnswersPerLink };
    const sessionSecret = randomBytes(32).toString('base64url');
    const a = await startTestGateway({ sessionSecret, authLimits: limits });
    const b = await startTestGateway({
      sessionSecret,
      authLimits: limits,
      databaseUrl: a.options.databaseUrl,
      dataDir: mkdtempSync(join(tmpdir(), 'fulcrum-test-')),
    });
    try {
      const { id, link } = await ticketWithLink(a, 'Two doors');
      const path = new URL(link).pathname;
      for (let i = 1; i <= 30; i++) expect((await answer(`${(i % 2 ? a : b).url}${path}`, `answer ${i}`)).status).toBe(303);
      for (const gw of [a, b]) await expectRefusedAnswer(await answer(`${gw.url}${path}`, 'one more'), 'Please try again in', 'one more');
      expect(await stored(a, id)).toEqual({ messages: 30, bytes: 0 });
    } finally {
      await b.destroy();
      await a.destroy();
    }
  }, 60_000);
});
