/**
 * Ticket.searchMatch through the real gateway: where `tickets(filter: { search })` matched each ticket, with a plain
 * snippet and the matching words as ranges; null without a search; another agent's ticket is never in the results.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { startSignedIn, type TestGateway } from '../../src/testing/harness.js';
import { dataOf, type TestClient } from '../../src/testing/client.js';
import { validTicket } from '../../src/testing/fixtures.js';

let gw: TestGateway;
let demo: TestClient;
let marnie: TestClient;
beforeAll(async () => ([gw, demo, marnie] = await startSignedIn(0, 1)));
afterAll(() => gw.destroy());

const SEARCH = `query($s: String) { tickets(filter: { search: $s }, first: 10) { nodes { id searchMatch { in snippet highlights { start length } } } } }`;
type Node = { id: number; searchMatch: { in: string; snippet: string; highlights: { start: number; length: number }[] } | null };
const search = async (c: TestClient, s: string | null) => dataOf(await c.gql(SEARCH, { s })).tickets.nodes as Node[];

describe('Ticket.searchMatch', () => {
  it('says where each result matched, with the words as ranges of a plain snippet', async () => {
    const word = `zq${randomBytes(5)
      .toString('hex')
      .replace(/\d/g, (d) => 'ghijklmnop'[Number(d)])}`;
    const inText = (await demo.post('/api/tickets/create', { ...validTicket(), description: `The ${word} on floor 2 <b>jams</b>.` })).body.id;
    const inTitle = (await demo.post('/api/tickets/create', { ...validTicket(), title: `About ${word}` })).body.id;
    const theirs = (await marnie.post('/api/tickets/create', { ...validTicket(), description: `Also ${word}.` })).body.id;
    const nodes = await search(demo, word.toUpperCase());
    expect(nodes.map((n) => n.id).sort()).toEqual([inText, inTitle].sort());
    expect(nodes.map((n) => n.id)).not.toContain(theirs);
    const text = nodes.find((n) => n.id === inText)!.searchMatch!;
    expect(text).toMatchObject({ in: 'DESCRIPTION', snippet: `The ${word} on floor 2 <b>jams</b>.` });
    expect(text.highlights.map((h) => text.snippet.slice(h.start, h.start + h.length))).toEqual([word]);
    expect(nodes.find((n) => n.id === inTitle)!.searchMatch).toMatchObject({ in: 'TITLE', snippet: `About ${word}` });
    expect((await search(demo, null)).every((n) => n.searchMatch === null)).toBe(true);
  });
});
