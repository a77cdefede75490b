/**
 * Two gateways on one PostgreSQL database share the mail outbox: every reply, whichever gateway took
 * it, reaches the SMTP server exactly once (claims are FOR UPDATE SKIP LOCKED with a lease), and with a server that
 * refuses some first attempts, each mail still arrives once and its delivery counts its attempts. PostgreSQL only:
 * SQLite has one gateway per file.
 */
import { mkdtempSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, testDatabaseMode, type TestGateway } from '../../src/testing/harness.js';
import { carry, type TestClient } from '../../src/testing/client.js';
import { PNG } from '../../src/testing/fixtures.js';
import { figure } from '../../src/testing/measure.js';
import { startSmtp, type TestSmtp } from '../../src/testing/smtp.js';

describe.skipIf(testDatabaseMode() !== 'postgres')('the mail outbox with two gateways on one PostgreSQL', () => {
  let a: TestGateway;
  let b: TestGateway;
  let smtp: TestSmtp;
  let clients: TestClient[];

  beforeAll(async () => {
    smtp = await startSmtp();
    const sessionSecret = randomBytes(32).toString('base64url');
    const mail = { smtpUrl: smtp.url, retryDelaysMs: [100, 100], pollMs: 50 };
    a = await startTestGateway({ sessionSecret, mail });
    b = await startTestGateway({ sessionSecret, mail, databaseUrl: a.options.databaseUrl, dataDir: mkdtempSync(join(tmpdir(), 'fulcrum-test-')) });
    const agent = await a.as(0);
    clients = [agent, carry(agent, b)];
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await a?.destroy();
    await smtp?.close();
  });

  async function replies(count: number, tag: string): Promise<Set<string>> {
    const created = await clients[0].gqlUpload(
      'mutation ($input: TicketInput!, $image: Upload) { createTicket(input: $input, image: $image) { id } }',
      { input: { title: tag, requesterId: 1, description: 'Two gateways.' } },
      'image',
      { data: PNG },
    );
    const ticketId = created.data!.createTicket.id as number;
    const bodies = new Set<string>();
    await Promise.all(
      Array.from({ length: 4 }, async (_, w) => {
        for (let i = w; i < count; i += 4) {
          const body = `${tag}-${i}`;
          const res = await clients[i % 2].gql('mutation ($id: Int!, $body: String!) { replyToRequester(ticketId: $id, body: $body) { id } }', {
            id: ticketId,
            body,
          });
          expect(res.errors).toBeUndefined();
          bodies.add(body);
        }
      }),
    );
    return bodies;
  }

  const bodyOf = (text: string | undefined) => (text ?? '').split('\n')[0];

  it('each reply is mailed once, whichever gateway took it', async () => {
    const sent = await replies(60, 'once');
    const got = await smtp.waitFor(60, (m) => bodyOf(m.parsed.text).startsWith('once-'), 30_000);
    await new Promise((r) => setTimeout(r, 800));
    const all = smtp.received.filter((m) => bodyOf(m.parsed.text).startsWith('once-'));
    figure(
      'mail outbox, two gateways',
      `${sent.size} replies over 2 gateways: ${all.length} mails, ${new Set(all.map((m) => m.parsed.messageId)).size} distinct Message-IDs`,
    );
    expect(got.length).toBe(60);
    expect(all).toHaveLength(60);
    expect(new Set(all.map((m) => bodyOf(m.parsed.text)))).toEqual(sent);
    expect(new Set(all.map((m) => m.parsed.messageId)).size).toBe(60);
  }, 60_000);

  it('with temporary failures, each mail still arrives once', async () => {
    smtp.failNext(10);
    const sent = await replies(30, 'retry');
    await smtp.waitFor(30, (m) => bodyOf(m.parsed.text).startsWith('retry-'), 30_000);
    await new Promise((r) => setTimeout(r, 800));
    const all = smtp.received.filter((m) => bodyOf(m.parsed.text).startsWith('retry-'));
    expect(all).toHaveLength(30);
    expect(new Set(all.map((m) => bodyOf(m.parsed.text)))).toEqual(sent);
    const rows = await a.orm.em
      .fork()
      .getConnection()
      .execute<{ state: string; attempts: number }[]>(
        "select delivery_state as state, delivery_attempts as attempts from ticket_replies where body like 'retry-%'",
      );
    expect(rows.every((r) => r.state === 'SENT')).toBe(true);
    expect(rows.reduce((n, r) => n + Number(r.attempts), 0)).toBe(40);
  }, 60_000);
});
