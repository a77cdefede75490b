/**
 * No leak possible, as a property: for random timelines of notes (added, edited, deleted), replies and
 * requester messages, every mail written to the outbox and the requester page served over HTTP hold no note text,
 * no note's revision and nothing that counts the notes. The page is compared with the page of a twin ticket that
 * had the same public entries and no note at all: apart from the entries' times, the two are the same bytes.
 * A real gateway (SQLite, or PostgreSQL + Redis in the second pass); the writes go through the same services the
 * GraphQL resolvers call. The mail server is "configured" without a sender, so every outbound mail stays in the
 * outbox to be read exactly as nodemailer would be given it (email.test.ts proves what the SMTP server receives),
 * with the reply's files the sender attaches (attachments.test.ts proves they arrive). Replies and the requester's
 * answers (their images, pageImages.test.ts) carry random files; the requester page's files (fetched under its
 * token) and the mails' are the twin's, byte for byte. A note has no file at all (no column can name one).
 * Held mail (another sender's mail on the thread, the requester's auto-reply, with files) is internal like
 * a note: the twin never gets it, and the page (and its files) must still be the twin's, the ticket not reopened.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import {
  demoTicketImage,
  forkEm,
  incomingMail,
  requesterLinks,
  requesterReplies,
  requesterView,
  ticketNotes,
  tickets,
  type ServiceContext,
} from '@fulcrum/schema';
import { startTestGateway, testDatabaseMode, type TestGateway } from '../../src/testing/harness.js';
import { PNG } from '../../src/testing/fixtures.js';

let gw: TestGateway;
let agentId: number;

beforeAll(async () => {
  gw = await startTestGateway();
  gw.deps.mail!.configured = true; // queued, never sent: the outbox keeps every mail for the check
  agentId = (await (await gw.as(0)).gql('{ me { id } }')).data!.me.id as number;
}, 60_000);
afterAll(() => gw?.destroy());

const ctx = (): ServiceContext => ({ em: forkEm(gw.orm), viewerId: agentId, deps: gw.deps, clientIp: '127.0.0.1', via: 'WEB' });
const requesterCtx = (): ServiceContext => ({ em: forkEm(gw.orm), viewerId: null, deps: gw.deps, clientIp: '127.0.0.2', via: 'REQUESTER_PAGE' });

type Op =
  | { op: 'note'; text: string }
  | { op: 'editNote'; text: string }
  | { op: 'deleteNote' }
  | { op: 'reply'; text: string; files: string[] }
  | { op: 'answer'; text: string; files: string[] }
  | { op: 'solve' }
  // Mail on the ticket's thread that is held (another sender, or an auto-reply): internal like a note.
  | { op: 'heldMail'; text: string; auto: boolean; files: string[] };

const PUBLIC = new Set(['reply', 'answer']);
const text = fc
  .string({ minLength: 1, maxLength: 60, unit: fc.constantFrom('a', 'b', ' ', '<', '&', '"', 'é', '🙂', '\n', '1', '7') })
  .filter((s) => s.trim().length > 0);
/** Attachment names (a reply's files): plain names of the same awkward characters. */
const fileName = fc.string({ minLength: 1, maxLength: 20, unit: fc.constantFrom('a', 'b', ' ', '<', '&', '"', 'é', '🙂', '1') }).map((n) => `${n}.png`);
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: text.map((t) => ({ op: 'note' as const, text: t })) },
  { weight: 1, arbitrary: text.map((t) => ({ op: 'editNote' as const, text: t })) },
  { weight: 1, arbitrary: fc.constant({ op: 'deleteNote' as const }) },
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant('reply' as const), text, files: fc.array(fileName, { maxLength: 2 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant('answer' as const), text, files: fc.array(fileName, { maxLength: 2 }) }),
  },
  { weight: 1, arbitrary: fc.constant({ op: 'solve' as const }) },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant('heldMail' as const), text, auto: fc.boolean(), files: fc.array(fileName, { maxLength: 2 }) }),
  },
);

/** A mail on the ticket's thread (References its root) from another address, or an auto-reply of the requester's. */
async function heldMail(ticketId: number, body: string, auto: boolean, files: string[]): Promise<void> {
  const composer = new MailComposer({
    from: auto ? 'requester@fulcrum.test' : 'stranger@elsewhere.test',
    subject: 'Re: your ticket',
    text: body,
    messageId: `<held-${randomUUID()}@client.test>`,
    references: [`<ticket-${ticketId}@127.0.0.1>`],
    headers: auto ? { 'Auto-Submitted': 'auto-replied' } : {},
    attachments: files.map((filename) => ({ filename, content: PNG })),
  });
  const raw = await new Promise<Buffer>((resolve, reject) => composer.compile().build((error, message) => (error ? reject(error) : resolve(message))));
  const result = await incomingMail.receiveMail(gw.deps, { raw, auth: null });
  expect(result.outcome).toMatch(/^(HELD|LOOP)$/);
}

async function newTicket(title: string): Promise<{ id: number; token: string }> {
  const ticket = await tickets.createTicket(ctx(), { title, requesterId: 1, description: 'Leak check.' }, demoTicketImage(1));
  const link = await requesterLinks.requesterLink(ctx(), ticket.id);
  return { id: ticket.id, token: link.slice(link.lastIndexOf('/') + 1) };
}

/** Plays the ops on a ticket; returns every note text written (bodies and the texts each edit replaced). */
async function play(ticket: { id: number; token: string }, ops: Op[]): Promise<string[]> {
  const secrets: string[] = [];
  const notes: number[] = [];
  for (const o of ops) {
    const marker = `⟦note-${randomUUID()}⟧`;
    if (o.op === 'note') {
      secrets.push(marker);
      notes.push((await ticketNotes.addTicketNote(ctx(), ticket.id, `${marker} ${o.text}`)).id);
    } else if (o.op === 'editNote' && notes.length) {
      secrets.push(marker);
      await ticketNotes.editTicketNote(ctx(), notes[notes.length - 1], `${marker} edited ${o.text}`);
    } else if (o.op === 'deleteNote' && notes.length) await ticketNotes.deleteTicketNote(ctx(), notes.pop());
    else if (o.op === 'reply')
      await requesterReplies.replyToRequester(
        ctx(),
        ticket.id,
        o.text,
        o.files.map((filename) => ({ filename, data: PNG })),
      );
    else if (o.op === 'answer')
      await requesterView.postRequesterMessage(
        requesterCtx(),
        ticket.token,
        o.text,
        o.files.map((filename) => ({ filename, data: PNG })),
      );
    else if (o.op === 'solve') await tickets.setTicketStatus(ctx(), ticket.id, 'SOLVED');
    else if (o.op === 'heldMail') {
      const held = `⟦held-${randomUUID()}⟧`;
      secrets.push(held);
      await heldMail(ticket.id, `${held} ${o.text}`, o.auto, o.files);
    }
  }
  return secrets;
}

const withoutTimes = (html: string) => html.replace(/<time [^>]*>[^<]*<\/time>/g, '<time>');

/** The files every mail of the ticket carries (mail/sender.ts attaches a reply's files when it sends): name, type, bytes. */
async function mailFilesOf(ticketId: number): Promise<string[]> {
  const rows = await forkEm(gw.orm)
    .getConnection()
    .execute<{ filename: string; mime_type: string; data: Buffer | Uint8Array }[]>(
      'select a.filename, a.mime_type, a.data from mail_outbox o join reply_attachments a on a.reply_id = o.reply_id join ticket_replies r on r.id = o.reply_id where r.ticket_id = ? order by o.id, a.id',
      [ticketId],
    );
  return rows.map((r) => `${r.filename} ${r.mime_type} ${Buffer.from(r.data).toString('base64')}`);
}

/** Every file the requester page links (`?file=<n>`), fetched under the token: type and bytes. */
async function pageFilesOf(token: string, page: string): Promise<string[]> {
  const files: string[] = [];
  for (const [, n] of page.matchAll(/href="\?file=(\d+)"/g)) {
    const res = await fetch(`${gw.url}/r/${token}?file=${n}`);
    expect(res.status).toBe(200);
    files.push(`${n} ${res.headers.get('content-type')} ${Buffer.from(await res.arrayBuffer()).toString('base64')}`);
  }
  return files;
}

async function mailsOf(ticketId: number): Promise<string[]> {
  const rows = await forkEm(gw.orm)
    .getConnection()
    .execute<{ message: string }[]>('select o.message from mail_outbox o join ticket_replies r on r.id = o.reply_id where r.ticket_id = ? order by o.id', [
      ticketId,
    ]);
  return rows.map((r) => r.message);
}

const RUNS = Number(process.env.FULCRUM_LEAK_RUNS ?? (testDatabaseMode() === 'postgres' ? 300 : 1000));

describe('no internal note reaches the requester', () => {
  it(`in ${RUNS} random timelines of notes and replies, no mail and no requester page holds a note, its revisions or their count`, async () => {
    let checked = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 8 }), async (ops) => {
        const title = `Leak ${checked++}`;
        const full = await newTicket(title);
        const twin = await newTicket(title);
        const secrets = await play(full, ops);
        await play(
          twin,
          ops.filter((o) => PUBLIC.has(o.op) || o.op === 'solve'),
        );
        const [page, twinPage] = await Promise.all([full, twin].map(async (t) => (await fetch(`${gw.url}/r/${t.token}`)).text()));
        const mails = await mailsOf(full.id);
        expect(mails).toHaveLength(ops.filter((o) => o.op === 'reply').length);
        for (const surface of [page, ...mails]) {
          expect(surface).not.toContain('⟦note-');
          for (const secret of secrets) expect(surface).not.toContain(secret);
          expect(surface.toLowerCase()).not.toContain('note');
        }
        expect(withoutTimes(page)).toBe(withoutTimes(twinPage));
        // Files: replies and answers carry them, notes never; the page's and the mails' (replies' only) are the twin's,
        // byte for byte.
        const files = ops.flatMap((o) => (o.op === 'reply' ? o.files : []));
        const answerFiles = ops.flatMap((o) => (o.op === 'answer' ? o.files : []));
        const [pageFiles, twinPageFiles] = await Promise.all([pageFilesOf(full.token, page), pageFilesOf(twin.token, twinPage)]);
        expect(pageFiles).toHaveLength(files.length + answerFiles.length);
        expect(pageFiles).toEqual(twinPageFiles);
        const mailFiles = await mailFilesOf(full.id);
        expect(mailFiles.map((f) => f.slice(0, f.lastIndexOf(' image/png ')))).toEqual(files);
        expect(await mailFilesOf(twin.id)).toEqual(mailFiles);
        for (const f of [...pageFiles, ...mailFiles]) expect(f).not.toContain('⟦note-');
        // The mails of the twin are the same mails but for their ids, link and ticket number.
        const strip = (m: string) =>
          m
            .replace(/<[^<>@]+@[^<>]+>/g, '<id>')
            .replace(/\/r\/[A-Za-z0-9_-]{43}/g, '/r/TOKEN')
            .replace(/#\d+/g, '#N');
        expect((await mailsOf(twin.id)).map(strip)).toEqual(mails.map(strip));
      }),
      { numRuns: RUNS },
    );
  }, 600_000);
});
