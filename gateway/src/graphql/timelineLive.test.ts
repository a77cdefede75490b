/**
 * `ticketTimelineEvents`: a client passing the last seq it holds gets every later entry once, in order,
 * with no gap and no duplicate, whichever gateway it (re)connects to and whichever gateway the writes go through,
 * also while writes keep coming during its catch-up. SQLite: one gateway. PostgreSQL + Redis: two gateways on
 * one database and Redis, the subscriber on one, the writer on the other.
 */
import { mkdtempSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, testDatabaseMode, type TestGateway } from '../testing/harness.js';
import { carry, dataOf, type TestClient } from '../testing/client.js';
import { PNG } from '../testing/fixtures.js';
import { openLive, type Live } from '../testing/wsClient.js';

const scaleOut = testDatabaseMode() === 'postgres' && process.env.FULCRUM_TEST_REDIS === '1';
let a: TestGateway;
let b: TestGateway;
let writer: TestClient;
let reader: TestClient;
const lives: Live[] = [];

beforeAll(async () => {
  const sessionSecret = randomBytes(32).toString('base64url');
  a = await startTestGateway({ sessionSecret });
  b = scaleOut ? await startTestGateway({ sessionSecret, databaseUrl: a.options.databaseUrl, dataDir: mkdtempSync(join(tmpdir(), 'fulcrum-test-')) }) : a;
  writer = await a.as(0);
  reader = carry(writer, b);
}, 60_000);
afterAll(async () => {
  await Promise.all(lives.map((l) => l.dispose()));
  if (b !== a) await b?.destroy();
  await a?.destroy();
});

const SUBSCRIPTION = (ticketId: number, afterSeq: number | null) =>
  `subscription { ticketTimelineEvents(ticketId: ${ticketId}${afterSeq === null ? '' : `, afterSeq: ${afterSeq}`}) {
    __typename ... on TicketNote { seq id body } ... on TicketChange { seq kind via changes { field to } note { id body editedAt deletedAt revisions { body } } } } }`;

async function newTicket(): Promise<number> {
  const data = dataOf(
    await writer.gqlUpload(
      'mutation ($input: TicketInput!, $image: Upload) { createTicket(input: $input, image: $image) { id } }',
      { input: { title: 'Live', requesterId: 1, description: 'Watched live.' } },
      'image',
      { data: PNG },
    ),
  );
  return (data.createTicket as { id: number }).id;
}

const addNote = async (ticketId: number, body: string) =>
  dataOf(await writer.gql('mutation ($id: Int!, $body: String!) { addTicketNote(ticketId: $id, body: $body) { id } }', { id: ticketId, body }));
const setStatus = async (ticketId: number, status: string) =>
  dataOf(await writer.gql(`mutation ($id: Int!) { setTicketStatus(id: $id, status: ${status}) { id } }`, { id: ticketId }));

function subscribe(ticketId: number, afterSeq: number | null, client: TestClient = reader, gateway: TestGateway = b) {
  const live = openLive(gateway.url, client.cookieHeader);
  lives.push(live);
  const subscription = live.subscribe(SUBSCRIPTION(ticketId, afterSeq));
  const seqs = () => subscription.events.map((e) => (e.data.ticketTimelineEvents as { seq: number }).seq);
  const until = (seq: number) => subscription.waitFor((d) => (d.ticketTimelineEvents as { seq: number }).seq === seq, 10_000);
  return { live, subscription, seqs, until };
}

describe(`ticketTimelineEvents (${scaleOut ? 'two gateways, PostgreSQL + Redis' : 'one gateway, SQLite'})`, () => {
  it('sends the backlog after afterSeq, then live entries from the other gateway; a reconnect with the last seq resumes without gap or duplicate', async () => {
    const ticketId = await newTicket();
    await addNote(ticketId, 'Before the subscription');
    const first = subscribe(ticketId, 0);
    await first.live.connected;
    await first.until(2);
    await setStatus(ticketId, 'PENDING');
    await addNote(ticketId, 'Live note');
    await first.until(4);
    expect(first.seqs()).toEqual([1, 2, 3, 4]);
    const entries = first.subscription.events.map((e) => e.data.ticketTimelineEvents as Record<string, unknown>);
    expect(entries[2]).toMatchObject({ __typename: 'TicketChange', kind: 'UPDATED', via: 'WEB', changes: [{ field: 'status', to: 'PENDING' }] });
    expect(entries[3]).toMatchObject({ __typename: 'TicketNote', body: 'Live note' });

    // Offline: two more changes are committed meanwhile; the client comes back with the last seq it holds.
    await first.live.dispose();
    await setStatus(ticketId, 'SOLVED');
    await addNote(ticketId, 'While away');
    const again = subscribe(ticketId, 4, reader, a); // the other gateway this time (the same one on SQLite)
    await again.until(6);
    await setStatus(ticketId, 'OPEN');
    await again.until(7);
    expect(again.seqs()).toEqual([5, 6, 7]);
    expect(again.subscription.errors).toEqual([]);
  });

  it("a note's edit and deletion carry the note as it is now (TicketChange.note): a live client needs no fetch", async () => {
    const ticketId = await newTicket();
    const noteId = ((await addNote(ticketId, 'First text')).addTicketNote as { id: number }).id;
    const live = subscribe(ticketId, 2);
    await live.live.connected;
    dataOf(await writer.gql('mutation ($id: Int!) { editTicketNote(id: $id, body: "Second text") { id } }', { id: noteId }));
    await live.until(3);
    dataOf(await writer.gql('mutation ($id: Int!) { deleteTicketNote(id: $id) { id } }', { id: noteId }));
    await live.until(4);
    const [edited, deleted] = live.subscription.events.map((e) => e.data.ticketTimelineEvents as Record<string, unknown>);
    expect(edited).toMatchObject({ kind: 'NOTE_EDITED', note: { id: noteId, body: 'Second text', deletedAt: null, revisions: [{ body: 'First text' }] } });
    expect((edited.note as { editedAt: string | null }).editedAt).not.toBeNull();
    // The deletion's entry, read after the deletion committed: the tombstone, text and revisions gone.
    expect(deleted).toMatchObject({ kind: 'NOTE_DELETED', note: { id: noteId, body: null, revisions: [] } });
    expect((deleted.note as { deletedAt: string | null }).deletedAt).not.toBeNull();
    // Entries that are about no note have none.
    const page = dataOf(
      await reader.gql('query ($id: Int!) { ticket(id: $id) { timeline(filter: CHANGES) { nodes { ... on TicketChange { kind note { id } } } } } }', {
        id: ticketId,
      }),
    );
    const kinds = (page.ticket as { timeline: { nodes: { kind: string; note: { id: number } | null }[] } }).timeline.nodes;
    expect(kinds.map((n) => [n.kind, n.note?.id ?? null])).toEqual([
      ['NOTE_DELETED', noteId],
      ['NOTE_EDITED', noteId],
      ['CREATED', null],
    ]);
  });

  it('writes racing the catch-up: every entry once, in order', async () => {
    const ticketId = await newTicket();
    let writing = true;
    let written = 1;
    const writes = (async () => {
      for (let i = 0; writing || i < 5; i++) {
        await addNote(ticketId, `Race ${i}`);
        written++;
        if (i > 40) break;
      }
    })();
    await new Promise((r) => setTimeout(r, 100));
    const live = subscribe(ticketId, 0);
    await live.live.connected;
    await new Promise((r) => setTimeout(r, 300));
    writing = false;
    await writes;
    await live.until(written);
    await new Promise((r) => setTimeout(r, 200)); // nothing more, and nothing twice
    expect(live.seqs()).toEqual(Array.from({ length: written }, (_, i) => i + 1));
  });

  it('without afterSeq only new entries come; the DELETED entry ends the stream', async () => {
    const ticketId = await newTicket();
    await addNote(ticketId, 'Old');
    const live = subscribe(ticketId, null);
    await live.live.connected;
    // graphql-ws has no acknowledgement for a subscribe: write until the subscription hears a new entry.
    let seq = 2;
    for (let attempt = 0; attempt < 20 && !live.subscription.events.length; attempt++) {
      await setStatus(ticketId, attempt % 2 ? 'OPEN' : 'PENDING');
      seq++;
      await new Promise((r) => setTimeout(r, 100));
    }
    const firstSeen = live.seqs()[0];
    expect(firstSeen).toBeGreaterThan(2);
    dataOf(await writer.gql('mutation ($id: Int!) { deleteTicket(id: $id) }', { id: ticketId }));
    await live.until(seq + 1);
    const seqs = live.seqs();
    expect(seqs).toEqual(Array.from({ length: seq + 1 - firstSeen + 1 }, (_, i) => firstSeen + i));
    expect((live.subscription.events.at(-1)!.data.ticketTimelineEvents as { kind: string }).kind).toBe('DELETED');
  });

  it("another agent's ticket is NOT_FOUND", async () => {
    const ticketId = await newTicket();
    const marnie = await b.as(1);
    const live = subscribe(ticketId, 0, marnie, b);
    await live.live.connected;
    const deadline = Date.now() + 5000;
    while (!live.subscription.errors.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(JSON.stringify(live.subscription.errors)).toContain('NOT_FOUND');
    expect(live.subscription.events).toEqual([]);
  });
});
