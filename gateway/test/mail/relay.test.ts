/**
 * FULCRUM_SMTP_TRUSTED_RELAYS: behind a relay, SPF judges the client address in the `Received` header
 * that relay added, and only for a connection from a trusted relay; anyone else's `Received` header is ignored
 * (the connection's own address is judged). Fixed DNS: good.test lets only 127.0.0.1 send.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../../src/testing/harness.js';
import { fixedResolver, freshId, incomingRows, sendTo } from './support.js';

let trusting: TestGateway;
let plain: TestGateway;

beforeAll(async () => {
  const incomingMail = { listen: '127.0.0.1:0', defaultAgent: 'demo@fulcrum.app', resolver: fixedResolver };
  trusting = await startTestGateway({ incomingMail: { ...incomingMail, trustedRelays: ['127.0.0.1'] } });
  plain = await startTestGateway({ incomingMail });
}, 60_000);
afterAll(async () => {
  await trusting?.destroy();
  await plain?.destroy();
});

/** A mail as relayed by an MTA that received it from `client`. */
const relayed = (client: string) => ({
  from: 'pat@good.test',
  envelope: { from: 'pat@good.test', to: ['help@fulcrum.test'] },
  subject: 'Relayed',
  text: 'Through the MTA.',
  messageId: freshId('relay'),
  headers: { Received: `from mx.sender.test (mx.sender.test [${client}]) by mail.fulcrum.test with ESMTPS id abc; Mon, 1 Jan 2026 10:00:00 +0000` },
});

describe('trusted relays', () => {
  it("from a trusted relay, SPF judges the Received header's client address", async () => {
    const away = relayed('203.0.113.9');
    expect((await sendTo(trusting.smtp!.port, away)).ok).toBe(true);
    expect(JSON.parse((await incomingRows(trusting.orm, away.messageId))[0].auth!)).toMatchObject({ spf: 'fail', dmarc: 'fail' });
    const local = relayed('127.0.0.1');
    expect((await sendTo(trusting.smtp!.port, local)).ok).toBe(true);
    expect(JSON.parse((await incomingRows(trusting.orm, local.messageId))[0].auth!)).toMatchObject({ spf: 'pass', dmarc: 'pass' });
  });

  it("from anyone else, a Received header is ignored: the connection's address is judged", async () => {
    const forged = relayed('203.0.113.9');
    expect((await sendTo(plain.smtp!.port, forged)).ok).toBe(true);
    expect(JSON.parse((await incomingRows(plain.orm, forged.messageId))[0].auth!)).toMatchObject({ spf: 'pass', dmarc: 'pass' });
  });
});
