/**
 * FULCRUM_MAIL_DNS (docs/email.md "Authentication"): mailauth asks the operator's DNS server. A tiny DNS server on
 * 127.0.0.1 (dnsServer.ts) publishes `forged.test`'s SPF (no one may send) and DMARC `p=reject`; with the variable
 * pointing at it, a mail claiming that domain fails DMARC and is held (on its new ticket, or on the thread it names). The gateway's resolver
 * is the one optionsFromEnv makes of the variable. SQLite, or PostgreSQL + Redis in the second pass.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configurationProblems, optionsFromEnv } from '../../src/config.js';
import type { TestGateway } from '../../src/testing/harness.js';
import type { TestSmtp } from '../../src/testing/smtp.js';
import { startTestDns, type TestDns } from './dnsServer.js';
import { freshId, incomingRows, sendTo, startMailDesk, stopMailDesk } from './support.js';

let dns: TestDns;
let smtp: TestSmtp;
let gw: TestGateway;

beforeAll(async () => {
  dns = await startTestDns({ 'forged.test': [['v=spf1 -all']], '_dmarc.forged.test': [['v=DMARC1; p=reject']] });
  const resolver = optionsFromEnv({ FULCRUM_MAIL_DNS: dns.address }).incomingMail?.resolver;
  ({ smtp, gw } = await startMailDesk({ resolver }));
}, 60_000);
afterAll(async () => {
  await stopMailDesk({ gw, smtp });
  await dns?.close();
});

describe('FULCRUM_MAIL_DNS', () => {
  it('a DMARC p=reject record served by the configured DNS server makes a forged mail held (DMARC)', async () => {
    // A new mail is held on its new ticket (docs/email.md "Forged mail"), a mail on its thread held there.
    const opening = freshId('open');
    await sendTo(gw.smtp!.port, { from: 'kim@forged.test', subject: 'Card', text: 'My card is blocked.', messageId: opening });
    const [opened] = await incomingRows(gw.orm, opening);
    expect(opened).toMatchObject({ outcome: 'HELD', reason: 'DMARC' });
    const id = opened.ticket_id!;
    expect(id).toBeGreaterThan(0);
    const messageId = freshId('forged');
    const forged = await sendTo(gw.smtp!.port, { from: 'kim@forged.test', subject: `Re: Card [#${id}]`, text: 'Send the new PIN here.', messageId });
    expect(forged.ok).toBe(true);
    const [row] = await incomingRows(gw.orm, messageId);
    expect(row).toMatchObject({ outcome: 'HELD', reason: 'DMARC', ticket_id: id });
    expect(JSON.parse(row.auth!)).toMatchObject({ dmarc: 'fail' });
    expect(dns.asked).toContain('_dmarc.forged.test');
  });

  it('an unreadable value is refused at start with the form it takes', () => {
    for (const value of ['resolver.example:53', '127.0.0.1', '127.0.0.1:99999', '::1:53'])
      expect(configurationProblems(optionsFromEnv({ FULCRUM_MAIL_DNS: value })).join('\n')).toMatch(/FULCRUM_MAIL_DNS must be host:port/);
    expect(configurationProblems(optionsFromEnv({ FULCRUM_MAIL_DNS: '[::1]:5353' }))).toEqual([]);
  });
});
