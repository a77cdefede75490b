/**
 * Images on the requester's answers ("lets the requester answer (text and images, with the ticket's
 * limits)"), through a real gateway over HTTP on 127.0.0.1: the page's plain multipart form stores the images with
 * the RequesterMessage; the requester sees them on the page under their link, the ticket's agents in the timeline
 * (`RequesterMessage.attachments`, /attachments/<id> under the access rule), nobody through a wrong or revoked
 * token or as another agent. Other types, oversize files and too many are refused on the page with the reason and
 * the text kept, and nothing is stored (fast-check over the files sent). SQLite, or PostgreSQL + Redis in the
 * second pass.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rules } from '@fulcrum/schema';
import { startTestGateway, type TestGateway } from '../../src/testing/harness.js';
import { dataOf, type TestClient } from '../../src/testing/client.js';
import { HTML_AS_PNG, JPEG, PNG } from '../../src/testing/fixtures.js';

const { LIMITS, MESSAGES } = rules;

let gw: TestGateway;
let demo: TestClient;
let other: TestClient;

beforeAll(async () => {
  gw = await startTestGateway();
  demo = await gw.as(0);
  other = await gw.as(1);
}, 60_000);
afterAll(() => gw?.destroy());

type Data = Record<string, any>;
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const OVERSIZE = Buffer.concat([PNG, Buffer.alloc(LIMITS.imageBytes + 1 - PNG.length)]);

/** A ticket of Demo's and its requester link's path (/r/<token>). */
async function ticketWithLink(title: string): Promise<{ id: number; path: string }> {
  const id = dataOf(
    await demo.gqlUpload(
      'mutation ($input: TicketInput!, $image: Upload) { createTicket(input: $input, image: $image) { id } }',
      { input: { title, requesterId: 1, description: 'The tray is stuck.' } },
      'image',
      { data: PNG },
    ),
  ).createTicket.id as number;
  const link = dataOf(await demo.gql(`{ ticket(id: ${id}) { requesterLink } }`)).ticket.requesterLink as string;
  return { id, path: new URL(link).pathname };
}

/** The requester's answer, as the page's form sends it (multipart/form-data), without following the redirect. */
async function answer(path: string, body: string, files: { data: Buffer; name: string; type?: string }[]): Promise<Response> {
  const form = new FormData();
  form.append('body', body);
  for (const f of files) form.append('images', new Blob([new Uint8Array(f.data)], { type: f.type ?? 'image/png' }), f.name);
  return fetch(`${gw.url}${path}`, { method: 'POST', body: form, redirect: 'manual' });
}

async function stored(): Promise<{ messages: number; files: number }> {
  const conn = gw.orm.em.fork().getConnection();
  const [m] = await conn.execute<{ n: number | string }[]>('select count(*) as n from requester_messages');
  const [f] = await conn.execute<{ n: number | string }[]>('select count(*) as n from reply_attachments');
  return { messages: Number(m.n), files: Number(f.n) };
}

const MESSAGE_FILES = `query ($id: Int!) { ticket(id: $id) { timeline(filter: REPLIES) { nodes { ... on RequesterMessage { text: body attachments { id filename mimeType byteSize url } } } } } }`;

describe("images on the requester's answer", () => {
  it('the form is multipart with an image input; an answer with images is stored, shown on the page and to the agent, never through a wrong or revoked token', async () => {
    const { id, path } = await ticketWithLink('Answer with images');
    const page = await (await fetch(`${gw.url}${path}`)).text();
    expect(page).toContain('<form method="post" enctype="multipart/form-data"');
    expect(page).toContain('<input type="file" id="images" name="images" accept="image/png,image/jpeg,image/gif,image/webp" multiple');

    const sent = await answer(path, 'Here is what I see.', [
      { data: PNG, name: 'screen «1».png' },
      { data: JPEG, name: 'photo.jpg', type: 'image/jpeg' },
    ]);
    expect(sent.status).toBe(303);
    expect(sent.headers.get('location')).toBe(`${path}?sent=1`);

    // On the page, under the requester's own link: inline, numbered, no record id.
    const html = await (await fetch(`${gw.url}${path}?sent=1`)).text();
    expect(html).toContain('Your message was sent.');
    expect(html).toContain('<img src="?file=1" alt="screen «1».png">');
    expect(html).toContain('<img src="?file=2" alt="photo.jpg">');
    expect(html).not.toContain('/attachments/');
    const first = await fetch(`${gw.url}${path}?file=1`);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('image/png');
    expect(first.headers.get('set-cookie')).toBeNull();
    expect(Buffer.compare(Buffer.from(await first.arrayBuffer()), PNG)).toBe(0);
    expect((await fetch(`${gw.url}${path}?file=3`)).status).toBe(404);

    // To the agent: the timeline's RequesterMessage lists them; the ticket's agent downloads them, another agent 404.
    const node = dataOf(await demo.gql(MESSAGE_FILES, { id })).ticket.timeline.nodes[0];
    expect(node.text).toBe('Here is what I see.');
    expect(node.attachments.map((a: Data) => [a.filename, a.mimeType, a.byteSize])).toEqual([
      ['screen «1».png', 'image/png', PNG.length],
      ['photo.jpg', 'image/jpeg', JPEG.length],
    ]);
    const own = await demo.fetch(node.attachments[1].url);
    expect(own.status).toBe(200);
    expect(own.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.compare(Buffer.from(await own.arrayBuffer()), JPEG)).toBe(0);
    expect((await other.fetch(node.attachments[1].url)).status).toBe(404);
    expect((await fetch(`${gw.url}${node.attachments[1].url}`)).status).toBeGreaterThanOrEqual(400);

    // A wrong token reads nothing and stores nothing; a revoked one the same, and the new link works.
    const before = await stored();
    const wrong = `/r/${'A'.repeat(43)}`;
    expect((await fetch(`${gw.url}${wrong}?file=1`)).status).toBe(404);
    const wrongPost = await answer(wrong, 'Hello?', [{ data: PNG, name: 'a.png' }]);
    expect(wrongPost.status).toBe(404);
    expect(await wrongPost.text()).not.toContain('Answer with images');
    const fresh = new URL(dataOf(await demo.gql(`mutation { revokeRequesterLink(ticketId: ${id}) }`)).revokeRequesterLink as string).pathname;
    expect((await fetch(`${gw.url}${path}?file=1`)).status).toBe(404);
    expect((await answer(path, 'Old link', [{ data: PNG, name: 'a.png' }])).status).toBe(404);
    expect(await stored()).toEqual(before);
    expect((await fetch(`${gw.url}${fresh}?file=2`)).status).toBe(200);
  });

  it('the text-only forms keep working: multipart without a file, and urlencoded', async () => {
    const { id, path } = await ticketWithLink('Text only');
    expect((await answer(path, 'Just text', [])).status).toBe(303);
    const empty = new FormData();
    empty.append('body', 'No file chosen');
    // What a browser sends for an empty file input: a part with an empty name and no bytes.
    empty.append('images', new Blob([]), '');
    expect((await fetch(`${gw.url}${path}`, { method: 'POST', body: empty, redirect: 'manual' })).status).toBe(303);
    const urlencoded = await fetch(`${gw.url}${path}`, { method: 'POST', body: new URLSearchParams({ body: 'Form text' }), redirect: 'manual' });
    expect(urlencoded.status).toBe(303);
    const nodes = dataOf(await demo.gql(MESSAGE_FILES, { id })).ticket.timeline.nodes as Data[];
    expect(nodes.map((n) => [n.text, n.attachments.length])).toEqual([
      ['Form text', 0],
      ['No file chosen', 0],
      ['Just text', 0],
    ]);
  });

  it('another type, an oversize image or too many: refused on the page with the reason, the text kept, nothing stored', async () => {
    const { path } = await ticketWithLink('Refused files');
    const cases: [string, { data: Buffer; name: string; type?: string }[], number, string][] = [
      ['html', [{ data: HTML_AS_PNG, name: 'x.png' }], 400, MESSAGES.imageType],
      ['pdf', [{ data: PDF, name: 'invoice.pdf', type: 'application/pdf' }], 400, MESSAGES.imageType],
      ['oversize', [{ data: OVERSIZE, name: 'big.png' }], 413, MESSAGES.imageSize],
      ['too many', Array.from({ length: LIMITS.replyAttachments.max + 1 }, (_, i) => ({ data: PNG, name: `${i}.png` })), 400, MESSAGES.imageCount],
      [
        'one good, one bad',
        [
          { data: PNG, name: 'ok.png' },
          { data: Buffer.from('plain text'), name: 'notes.txt', type: 'text/plain' },
        ],
        400,
        MESSAGES.imageType,
      ],
    ];
    for (const [label, files, status, message] of cases) {
      const before = await stored();
      const res = await answer(path, `Draft <${label}>`, files);
      expect(res.status, label).toBe(status);
      const html = await res.text();
      expect(html, label).toContain(`<p class="error" id="images-error" role="alert">${message}</p>`);
      expect(html, label).toContain(`Draft &lt;${label}&gt;</textarea>`);
      expect(html, label).toContain('aria-describedby="images-hint images-error" aria-invalid="true"');
      expect(await stored(), label).toEqual(before);
    }
    // Text and file refused together: both said at once.
    const both = await (await answer(path, '   ', [{ data: HTML_AS_PNG, name: 'x.png' }])).text();
    expect(both).toContain(MESSAGES.requesterMessage);
    expect(both).toContain(MESSAGES.imageType);
  });

  it('whatever files are sent: stored exactly when all are images within the limits and at most 5, else refused with nothing stored, never a 500 (fast-check)', async () => {
    const { id, path } = await ticketWithLink('Random files');
    const good = fc.constantFrom({ data: PNG, type: 'image/png', ok: true }, { data: JPEG, type: 'image/jpeg', ok: true });
    const bad = fc.oneof(
      fc.constant({ data: HTML_AS_PNG, type: 'image/png', ok: false }),
      fc.constant({ data: PDF, type: 'application/pdf', ok: false }),
      fc.constant({ data: Buffer.concat([PNG, Buffer.from('<script>x</script>')]), type: 'image/png', ok: false }),
      fc.uint8Array({ minLength: 1, maxLength: 64 }).map((a) => ({ data: Buffer.from(a), type: 'application/octet-stream', ok: false })),
    );
    const file = fc.oneof({ weight: 4, arbitrary: good }, { weight: 1, arbitrary: bad });
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(file, { maxLength: LIMITS.replyAttachments.max + 2 }), async (files) => {
        const before = await stored();
        const res = await answer(
          path,
          'Files',
          files.map((f, i) => ({ data: f.data, name: `f${i}.bin`, type: f.type })),
        );
        expect(res.status).toBeLessThan(500);
        const valid = files.length <= LIMITS.replyAttachments.max && files.every((f) => f.ok);
        if (valid) {
          accepted++;
          expect(res.status).toBe(303);
          expect(await stored()).toEqual({ messages: before.messages + 1, files: before.files + files.length });
          const newest = dataOf(await demo.gql(MESSAGE_FILES, { id })).ticket.timeline.nodes[0];
          expect(newest.attachments.map((a: Data) => a.byteSize)).toEqual(files.map((f) => f.data.length));
        } else {
          expect(res.status).toBe(400);
          expect(await res.text()).toContain('id="images-error"');
          expect(await stored()).toEqual(before);
        }
      }),
      { numRuns: Number(process.env.FULCRUM_ANSWER_FILE_RUNS ?? 40) },
    );
    expect(accepted).toBeGreaterThan(0);
  });
});
