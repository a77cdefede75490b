/**
 * Two gateways on one PostgreSQL database, each with its SMTP listener: the same mail delivered to both
 * at once (an MTA that retries on the other gateway, two MX relays) becomes one entry and one ticket, the unique
 * (Message-ID, content hash) deciding. PostgreSQL only: SQLite has one gateway per file.
 */
import { mkdtempSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, testDatabaseMode, type TestGateway } from '../../src/testing/harness.js';
import { fixedResolver, freshId, incomingRows, sendTo, ticketIn } from './support.js';

describe.skipIf(testDatabaseMode() !== 'postgres')('incoming mail on two gateways', () => {
  let a: TestGateway;
  let b: TestGateway;

  beforeAll(async () => {
    const sessionSecret = randomBytes(32).toString('base64url');
    const incomingMail = { listen: '127.0.0.1:0', defaultAgent: 'demo@fulcrum.app', resolver: fixedResolver };
    a = await startTestGateway({ sessionSecret, incomingMail });
    b = await startTestGateway({ sessionSecret, incomingMail, databaseUrl: a.options.databaseUrl, dataDir: mkdtempSync(join(tmpdir(), 'fulcrum-test-')) });
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await a?.destroy();
  });

  it('the same mail sent to both gateways at once is one entry and one ticket, each time', async () => {
    for (let round = 0; round < 10; round++) {
      const messageId = freshId('twice');
      // One mail (one Date), delivered twice.
      const mail = { from: `twin${round}@good.test`, subject: `Twice ${round}`, text: 'Delivered to both gateways.', messageId, date: new Date() };
      const results = await Promise.all([sendTo(a.smtp!.port, mail), sendTo(b.smtp!.port, mail)]);
      expect(
        results.every((r) => r.ok),
        JSON.stringify(results),
      ).toBe(true);
      const tickets = results.map(ticketIn).filter((id) => id !== null);
      expect(tickets).toHaveLength(1);
      const rows = await incomingRows(a.orm, messageId);
      expect(rows).toHaveLength(1);
      expect(rows[0].ticket_id).toBe(tickets[0]);
      const [{ n }] = await a.orm.em
        .fork()
        .getConnection()
        .execute<{ n: number | string }[]>('select count(*) as n from tickets t join customers c on c.id = t.requester_id where c.email = ?', [mail.from]);
      expect(Number(n)).toBe(1);
    }
  });
});
