/**
 * The whole subject: a mail's subject is kept whole on its ticket (`Ticket.subject`, the title keeps 40 characters),
 * survives an edit of the title, and is the agent's reply's "Re: <subject> [#id]", through the real SMTP listener and
 * a real SMTP server for the reply. A ticket that did not come by mail has its title as its subject.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestGateway } from '../../src/testing/harness.js';
import { dataOf, type TestClient } from '../../src/testing/client.js';
import { validTicket } from '../../src/testing/fixtures.js';
import type { TestSmtp } from '../../src/testing/smtp.js';
import { freshId, sendTo, ticketIn, startMailDesk, stopMailDesk } from './support.js';

let smtp: TestSmtp;
let gw: TestGateway;
let demo: TestClient;

beforeAll(async () => {
  ({ smtp, gw, demo } = await startMailDesk({ maxBytes: 300_000 }));
}, 60_000);
afterAll(() => stopMailDesk({ gw, smtp }));

const SUBJECT = `query ($id: Int!) { ticket(id: $id) { title subject } }`;
const subjectOf = async (id: number) => dataOf(await demo.gql(SUBJECT, { id })).ticket as { title: string; subject: string };
const edit = (id: number, title: string) =>
  demo.gql('mutation ($id: Int!, $input: TicketInput!) { updateTicket(id: $id, input: $input) { id } }', {
    id,
    input: { title, requesterId: 1, description: 'Smoke from tray 2.' },
  });

describe('the whole subject', () => {
  it('round-trips from the mail to the reply subject, and an edit of the title leaves it', async () => {
    const subject = `Réinstallation impossible: ${'the installer stops at 97 percent, '.repeat(6)}help`;
    const sent = await sendTo(gw.smtp!.port, { from: 'ines@good.test', subject, text: 'It stops every time.', messageId: freshId('subject') });
    expect(sent.ok, JSON.stringify(sent)).toBe(true);
    const id = ticketIn(sent)!;
    expect(await subjectOf(id)).toEqual({ title: subject.slice(0, 40).trim(), subject });

    dataOf(await edit(id, 'Installer stops'));
    expect(await subjectOf(id)).toEqual({ title: 'Installer stops', subject });
    // A word only in the subject (past the title's 40 characters, and edited out of the title) finds the ticket.
    const found = dataOf(await demo.gql('{ tickets(filter: { search: "installer percent" }, first: 10) { nodes { id searchMatch { in } } } }')).tickets
      .nodes as { id: number; searchMatch: { in: string } }[];
    expect(found).toContainEqual({ id, searchMatch: { in: 'SUBJECT' } });

    const body = `Reply ${freshId()}`;
    dataOf(await demo.gql('mutation ($id: Int!, $body: String!) { replyToRequester(ticketId: $id, body: $body) { id } }', { id, body }));
    const [mail] = await smtp.waitFor(1, (m) => (m.parsed.text ?? '').includes(body));
    expect(mail.parsed.subject).toBe(`Re: ${subject} [#${id}]`);
  });

  it('a ticket that did not come by mail: its subject is its title, and follows it', async () => {
    const id = (await demo.post('/api/tickets/create', validTicket())).body.id as number;
    expect(await subjectOf(id)).toEqual({ title: 'Printer on fire', subject: 'Printer on fire' });
    dataOf(await edit(id, 'Printer still on fire'));
    expect(await subjectOf(id)).toEqual({ title: 'Printer still on fire', subject: 'Printer still on fire' });
  });
});
