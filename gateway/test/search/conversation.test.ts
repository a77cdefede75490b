/**
 * Search over the whole conversation through the real gateway: a word only in an agent's reply, a note, a second
 * requester mail (through the real SMTP listener) or an attachment's name finds the ticket, and `searchMatch` says
 * where with a snippet holding the word; a note's edited-out or deleted word no longer finds it; another agent who
 * may not read the ticket finds nothing. SQLite, or PostgreSQL + Redis in the second pass.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestGateway } from '../../src/testing/harness.js';
import { dataOf, type TestClient } from '../../src/testing/client.js';
import { PNG, validTicket } from '../../src/testing/fixtures.js';
import type { TestSmtp } from '../../src/testing/smtp.js';
import { freshId, sendTo, startMailDesk, stopMailDesk, ticketIn } from '../mail/support.js';

let smtp: TestSmtp;
let gw: TestGateway;
let demo: TestClient;
let marnie: TestClient;

beforeAll(async () => {
  ({ smtp, gw, demo } = await startMailDesk());
  marnie = await gw.as(1);
}, 60_000);
afterAll(() => stopMailDesk({ gw, smtp }));

/** A word no other test writes: letters only, so it is one word to both engines. */
const freshWord = () =>
  `zq${randomBytes(5)
    .toString('hex')
    .replace(/\d/g, (d) => 'ghijklmnop'[Number(d)])}`;

const SEARCH = `query($s: String) { tickets(filter: { search: $s }, first: 10) { nodes { id searchMatch { in snippet highlights { start length } } } } }`;
type Match = { in: string; snippet: string; highlights: { start: number; length: number }[] };
type Node = { id: number; searchMatch: Match | null };
const search = async (c: TestClient, s: string) => dataOf(await c.gql(SEARCH, { s })).tickets.nodes as Node[];

/** The one result of searching `word`: the ticket `id`, matched in `where`, its snippet holding the word (highlighted). */
async function expectFound(word: string, id: number, where: string) {
  const nodes = await search(demo, word);
  expect(nodes.map((n) => n.id)).toEqual([id]);
  const match = nodes[0].searchMatch!;
  expect(match.in).toBe(where);
  expect(match.snippet).toContain(word);
  expect(match.highlights.map((h) => match.snippet.slice(h.start, h.start + h.length))).toContain(word);
  // Another agent, who may not read the ticket, finds nothing of it.
  expect(await search(marnie, word)).toEqual([]);
}

const newTicket = async () => (await demo.post('/api/tickets/create', validTicket())).body.id as number;
const addNote = async (ticketId: number, body: string) =>
  dataOf(await demo.gql('mutation ($id: Int!, $body: String!) { addTicketNote(ticketId: $id, body: $body) { id } }', { id: ticketId, body })).addTicketNote
    .id as number;

describe('search over the conversation', () => {
  it('finds a word only in an agent reply', async () => {
    const word = freshWord();
    const id = await newTicket();
    dataOf(
      await demo.gql('mutation ($id: Int!, $body: String!) { replyToRequester(ticketId: $id, body: $body) { id } }', {
        id,
        body: `Please restart the ${word} service.`,
      }),
    );
    await expectFound(word, id, 'REPLY');
  });

  it('finds a word only in a note; the edited-out word no longer, the deleted note’s word neither', async () => {
    const [word, edited] = [freshWord(), freshWord()];
    const id = await newTicket();
    const note = await addNote(id, `Checked the ${word} cable.`);
    await expectFound(word, id, 'NOTE');

    dataOf(
      await demo.gql('mutation ($id: Int!, $body: String!) { editTicketNote(id: $id, body: $body) { id } }', {
        id: note,
        body: `Checked the ${edited} cable.`,
      }),
    );
    expect(await search(demo, word)).toEqual([]);
    await expectFound(edited, id, 'NOTE');

    dataOf(await demo.gql('mutation ($id: Int!) { deleteTicketNote(id: $id) { id } }', { id: note }));
    expect(await search(demo, edited)).toEqual([]);
  });

  it('finds a word only in the requester’s second mail, or in a held one', async () => {
    const word = freshWord();
    const first = freshId('conv');
    const sent = await sendTo(gw.smtp!.port, { from: 'rita@good.test', subject: 'Scanner offline', text: 'It went offline.', messageId: first });
    const id = ticketIn(sent)!;
    expect(id, JSON.stringify(sent)).toBeTruthy();
    const again = await sendTo(gw.smtp!.port, {
      from: 'rita@good.test',
      subject: 'Re: Scanner offline',
      text: `Now the ${word} light blinks.`,
      messageId: freshId('conv'),
      inReplyTo: first,
    });
    expect(again.ok, JSON.stringify(again)).toBe(true);
    await expectFound(word, id, 'REQUESTER_MESSAGE');

    // Another sender on the thread: held for review, shown to the ticket's agents, so searchable by them.
    const held = freshWord();
    const other = await sendTo(gw.smtp!.port, { from: 'eve@good.test', subject: 'Re', text: `Me too, ${held}.`, messageId: freshId('held'), inReplyTo: first });
    expect(other.ok, JSON.stringify(other)).toBe(true);
    await expectFound(held, id, 'REQUESTER_MESSAGE');
  });

  it('finds a word only in an attachment’s name', async () => {
    const word = freshWord();
    const id = await newTicket();
    dataOf(
      await demo.gqlUploads(
        'mutation ($id: Int!, $body: String!, $files: [Upload!]) { replyToRequester(ticketId: $id, body: $body, attachments: $files) { id } }',
        { id, body: 'See the screenshot.' },
        'files',
        [{ data: PNG, name: `${word}_screen.png`, type: 'image/png' }],
      ),
    );
    await expectFound(word, id, 'ATTACHMENT');
  });

  it('prefers the ticket’s own texts when they match too', async () => {
    const word = freshWord();
    const id = (await demo.post('/api/tickets/create', { ...validTicket(), title: `About ${word}` })).body.id as number;
    await addNote(id, `More on ${word}.`);
    const nodes = await search(demo, word);
    expect(nodes.map((n) => ({ id: n.id, in: n.searchMatch?.in }))).toEqual([{ id, in: 'TITLE' }]);
  });
});
