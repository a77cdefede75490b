/**
 * What mail clients leave in a mail that is not the sender's words (docs/email.md "Threading"): attribution lines in
 * other languages, Outlook on the web's separator rule, image references in the text of HTML-only mail, and a
 * calendar invite's event twice. Fixtures written for the project (fixtures/*.eml) through the real SMTP listener;
 * the original keeps everything. SQLite, or PostgreSQL + Redis in the second pass.
 */
import { readFileSync } from 'node:fs';
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

type Data = Record<string, any>;
const TICKET = `query ($id: Int!) { ticket(id: $id) { description
  timeline(filter: REPLIES) { nodes { __typename ... on RequesterMessage { body attachments { filename } original { text } } } } } }`;

/** Sends a mail (a fixture's text or one built here) as a new ticket; the ticket's description and first entry. */
async function newTicketOf(raw: string): Promise<{ description: string; entry: Data }> {
  const from = /^From: .*<([^>]+)>/m.exec(raw)![1];
  const sent = await sendTo(gw.smtp!.port, { envelope: { from, to: ['help@fulcrum.test'] }, raw: `Message-ID: ${freshId('left')}\r\n${raw}` });
  expect(sent.ok, JSON.stringify(sent)).toBe(true);
  const ticket = dataOf(await demo.gql(TICKET, { id: ticketIn(sent) })).ticket as Data;
  const entry = ticket.timeline.nodes.find((n: Data) => n.__typename === 'RequesterMessage');
  return { description: ticket.description, entry };
}

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

describe('leftovers of mail clients', () => {
  it('Outlook on the web (HTML only): the tracking pixel, the image and the quoted mail under the rule are gone; the original keeps them', async () => {
    const { description, entry } = await newTicketOf(fixture('outlook-web-html-only.eml'));
    expect(description).toBe('Thanks, the printer works now.');
    expect(entry.body).toBe('Thanks, the printer works now.');
    expect(entry.original.text).toContain('tracker.example/p.gif');
    expect(entry.original.text).toContain('Quoted question about toner');
  });

  it('Gmail in Japanese: the attribution line, the quote and [image: ...] are gone', async () => {
    const { description, entry } = await newTicketOf(fixture('gmail-japanese.eml'));
    expect(description).toBe('ありがとうございます。直りました。');
    expect(entry.body).toBe(description);
  });

  it.each([
    ['German', 'Am Mo., 1. Dez. 2026 um 09:00 Uhr schrieb Fulcrum Help <help@fulcrum.test>:'],
    ['French', 'Le lun. 1 déc. 2026 à 09:00, Fulcrum Help <help@fulcrum.test> a écrit :'],
    ['Spanish', 'El lun, 1 dic 2026 a las 9:00, Fulcrum Help (<help@fulcrum.test>) escribió:'],
    ['Outlook (underscores)', `${'_'.repeat(80)}\r\nFrom: Fulcrum Help <help@fulcrum.test>`],
  ])('%s attribution or separator: the history under it is gone', async (_language, attribution) => {
    const raw = [
      'From: Ana <ana@good.test>',
      'Subject: Toner',
      'Content-Type: text/plain; charset=utf-8',
      '',
      'The toner is here.',
      '',
      attribution,
      '',
      'Old question',
      '',
    ].join('\r\n');
    expect((await newTicketOf(raw)).entry.body).toBe('The toner is here.');
  });

  it('a calendar invite is one file: the named .ics, not the text/calendar part with the same bytes', async () => {
    const { description, entry } = await newTicketOf(fixture('calendar-invite.eml'));
    expect(description).toBe('You are invited to a printer check.');
    expect(entry.attachments.map((a: Data) => a.filename)).toEqual(['invite.ics']);
  });
});
