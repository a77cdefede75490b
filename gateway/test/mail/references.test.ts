/**
 * Our replies name the requester's own mail (docs/email.md "What is sent"): In-Reply-To is the latest requester
 * mail that joined the conversation (never a held one), References the thread root, the requester's first mail and
 * the later ones in time order ending with it, so mail clients put our answer under the customer's question. Real
 * mail through the SMTP listener and a real SMTP server for our replies; SQLite, or PostgreSQL + Redis.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestGateway } from '../../src/testing/harness.js';
import { dataOf, type TestClient } from '../../src/testing/client.js';
import type { TestSmtp } from '../../src/testing/smtp.js';
import { freshId, sendTo, ticketIn, startMailDesk, stopMailDesk } from './support.js';

let smtp: TestSmtp;
let gw: TestGateway;
let demo: TestClient;

beforeAll(async () => {
  ({ smtp, gw, demo } = await startMailDesk());
}, 60_000);
afterAll(() => stopMailDesk({ gw, smtp }));

async function reply(id: number, body: string) {
  dataOf(await demo.gql('mutation ($id: Int!, $body: String!) { replyToRequester(ticketId: $id, body: $body) { id } }', { id, body }));
  const [mail] = await smtp.waitFor(1, (m) => (m.parsed.text ?? '').includes(body));
  const references = mail.parsed.references;
  return { messageId: mail.parsed.messageId!, inReplyTo: mail.parsed.inReplyTo, references: Array.isArray(references) ? references : [references] };
}

describe('the threading headers of our replies', () => {
  it('In-Reply-To is the requester’s latest mail (not a held one); References: root, their first mail, then in time order', async () => {
    const first = freshId('q1');
    const id = ticketIn(await sendTo(gw.smtp!.port, { from: 'tess@good.test', subject: 'Sync fails', text: 'It fails.', messageId: first }))!;
    const r1 = await reply(id, `Which version (${id})?`);
    expect(r1.inReplyTo).toBe(first);
    const root = r1.references[0];
    expect(r1.references).toEqual([root, first]);
    const second = freshId('q2');
    await sendTo(gw.smtp!.port, { from: 'tess@good.test', subject: 'Re: Sync fails', text: 'Version 4.2.', messageId: second, inReplyTo: r1.messageId });
    // Another sender on the thread: held, so never named.
    await sendTo(gw.smtp!.port, { from: 'eve@good.test', subject: 'Re', text: 'Me too.', messageId: freshId('held'), inReplyTo: r1.messageId });
    const r2 = await reply(id, `Please update to 4.3 (${id}).`);
    expect(r2.inReplyTo).toBe(second);
    expect(r2.references).toEqual([root, first, r1.messageId, second]);
    // Our later reply without a new requester mail still answers their latest.
    const r3 = await reply(id, `Did it help (${id})?`);
    expect(r3.inReplyTo).toBe(second);
    expect(r3.references).toEqual([root, first, r1.messageId, second]);
  });

  it('at most 20 References in a long conversation: the root and their first mail are kept, then the latest', async () => {
    const first = freshId('long');
    const id = ticketIn(await sendTo(gw.smtp!.port, { from: 'long@good.test', subject: 'Long', text: 'Start.', messageId: first }))!;
    let last = first;
    for (let i = 0; i < 12; i++) {
      const r = await reply(id, `Answer ${i} (${id}).`);
      last = freshId(`long${i}`);
      await sendTo(gw.smtp!.port, { from: 'long@good.test', subject: 'Re: Long', text: `More ${i}.`, messageId: last, inReplyTo: r.messageId });
    }
    const final = await reply(id, `Final (${id}).`);
    expect(final.references).toHaveLength(20);
    expect(final.references[1]).toBe(first);
    expect(final.references[19]).toBe(last);
    expect(final.inReplyTo).toBe(last);
  });
});
