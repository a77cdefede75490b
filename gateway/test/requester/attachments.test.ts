/**
 * Files on replies to the requester: replyToRequester's `attachments` through a real gateway and a real
 * SMTP server on 127.0.0.1: the mail carries them as MIME attachments (parsed with mailparser), the agent's
 * timeline lists them (`TicketReply.attachments`), the ticket's agent downloads them and another agent gets 404,
 * the requester page shows images inline and other files as downloads under its own link only. Bad files, names
 * and counts are BAD_USER_INPUT on `attachments` (fast-check), never a 500, and store nothing.
 * SQLite, or PostgreSQL + Redis in the second pass.
 */
import { connect } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rules } from '@fulcrum/schema';
import { startTestGateway, type TestGateway } from '../../src/testing/harness.js';
import { dataOf, type TestClient } from '../../src/testing/client.js';
import { HTML_AS_PNG, JPEG, PNG } from '../../src/testing/fixtures.js';
import { startSmtp, type TestSmtp } from '../../src/testing/smtp.js';

const { LIMITS, MESSAGES } = rules;

let smtp: TestSmtp;
let gw: TestGateway;
let demo: TestClient;
let other: TestClient;

beforeAll(async () => {
  smtp = await startSmtp();
  gw = await startTestGateway({ mail: { smtpUrl: smtp.url, from: 'Fulcrum Help <help@fulcrum.test>', retryDelaysMs: [200, 200] } });
  demo = await gw.as(0);
  other = await gw.as(1);
}, 60_000);
afterAll(async () => {
  await gw?.destroy();
  await smtp?.close();
});

type Data = Record<string, any>;
/** A minimal PDF: file-type knows it by its `%PDF-` header. */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

async function newTicket(client: TestClient, title: string): Promise<number> {
  const data = dataOf(
    await client.gqlUpload(
      'mutation ($input: TicketInput!, $image: Upload) { createTicket(input: $input, image: $image) { id } }',
      { input: { title, requesterId: 1, description: 'The tray is stuck.' } },
      'image',
      { data: PNG },
    ),
  );
  return data.createTicket.id as number;
}

const REPLY =
  'mutation ($id: Int!, $body: String!, $files: [Upload!]) { replyToRequester(ticketId: $id, body: $body, attachments: $files) { id attachments { id filename mimeType byteSize url } } }';
const replyWith = (client: TestClient, ticketId: number, body: string, files: { data: Buffer; name?: string; type?: string }[]) =>
  client.gqlUploads(REPLY, { id: ticketId, body }, 'files', files);

/**
 * The name a file arrives with: multipart/form-data (the HTML standard, as browsers and undici write it) sends CR,
 * LF and `"` as %0D, %0A and %22, and the multipart parser (busboy) keeps only what follows the last slash or
 * backslash, and turns a name of "." or ".." into "" (its basename()). The server's own rule (a plain name) is then
 * checked on that.
 */
const sentName = (name: string) => {
  const base = name.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22').split(/[/\\]/).pop()!;
  return base === '.' || base === '..' ? '' : base;
};

const linkIn = (text: string) => /https?:\/\/\S+\/r\/[A-Za-z0-9_-]{43}/.exec(text)?.[0];

async function attachmentCount(): Promise<number> {
  const [row] = await gw.orm.em.fork().getConnection().execute<{ n: number | string }[]>('select count(*) as n from reply_attachments');
  return Number(row.n);
}

describe('attachments on replies', () => {
  it('are stored, mailed as MIME attachments, listed on the timeline, downloadable by the ticket agent only, and shown on the requester page', async () => {
    const ticketId = await newTicket(demo, 'Files');
    const made = dataOf(
      await replyWith(demo, ticketId, 'See attached.', [
        { data: PNG, name: 'screen shot.png', type: 'image/png' },
        { data: PDF, name: 'Invoice «März».pdf', type: 'application/pdf' },
      ]),
    ).replyToRequester;
    expect(made.attachments.map((a: Data) => [a.filename, a.mimeType, a.byteSize])).toEqual([
      ['screen shot.png', 'image/png', PNG.length],
      ['Invoice «März».pdf', 'application/pdf', PDF.length],
    ]);
    expect(made.attachments[0].url).toBe(`/attachments/${made.attachments[0].id}`);

    const [mail] = await smtp.waitFor(1, (m) => m.parsed.subject === `Re: Files [#${ticketId}]`);
    expect(mail.parsed.attachments.map((a) => [a.filename, a.contentType])).toEqual([
      ['screen shot.png', 'image/png'],
      ['Invoice «März».pdf', 'application/pdf'],
    ]);
    expect(Buffer.compare(mail.parsed.attachments[0].content, PNG)).toBe(0);
    expect(Buffer.compare(mail.parsed.attachments[1].content, PDF)).toBe(0);

    // The agent's timeline lists them; the ticket's agent downloads them, another agent gets 404.
    const node = dataOf(
      await demo.gql(`{ ticket(id: ${ticketId}) { timeline(filter: REPLIES) { nodes { ... on TicketReply { id attachments { id filename } } } } } }`),
    ).ticket.timeline.nodes[0];
    expect(node.attachments.map((a: Data) => a.filename)).toEqual(['screen shot.png', 'Invoice «März».pdf']);
    const own = await demo.fetch(made.attachments[0].url);
    expect(own.status).toBe(200);
    expect(own.headers.get('content-type')).toBe('image/png');
    expect(own.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.compare(Buffer.from(await own.arrayBuffer()), PNG)).toBe(0);
    const pdf = await demo.fetch(made.attachments[1].url);
    expect(pdf.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect((await other.fetch(made.attachments[0].url)).status).toBe(404);
    expect((await fetch(`${gw.url}${made.attachments[0].url}`)).status).toBeGreaterThanOrEqual(400);
    const foreign = await replyWith(other, ticketId, 'Not mine', [{ data: PNG, name: 'a.png' }]);
    expect(foreign.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');

    // The requester page: the image inline, the PDF a download, both under the requester's own link.
    const link = linkIn(mail.parsed.text ?? '')!;
    const html = await (await fetch(link)).text();
    expect(html).toContain('<img src="?file=1" alt="screen shot.png">');
    expect(html).toContain('<a href="?file=2" download>Invoice «März».pdf</a>');
    expect(html).not.toContain(`/attachments/`);
    const image = await fetch(`${link}?file=1`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('set-cookie')).toBeNull();
    expect(Buffer.compare(Buffer.from(await image.arrayBuffer()), PNG)).toBe(0);
    expect((await fetch(`${link}?file=3`)).status).toBe(404);
    expect((await fetch(`${link}?file=0`)).status).toBe(404);
    const fresh = dataOf(await demo.gql(`mutation { revokeRequesterLink(ticketId: ${ticketId}) }`)).revokeRequesterLink;
    expect((await fetch(`${link}?file=1`)).status).toBe(404);
    expect((await fetch(`${fresh}?file=1`)).status).toBe(200);
  });

  it('a reply without attachments has an empty list; a file for an undeclared variable is refused', async () => {
    const ticketId = await newTicket(demo, 'No files');
    const made = dataOf(await demo.gql(REPLY, { id: ticketId, body: 'Plain' })).replyToRequester;
    expect(made.attachments).toEqual([]);
    const form = new FormData();
    form.append('operations', JSON.stringify({ query: REPLY, variables: { id: ticketId, body: 'x', files: null, sneaky: null } }));
    form.append('map', JSON.stringify({ 0: ['variables.sneaky'] }));
    form.append('0', new Blob([new Uint8Array(PNG)]), 'a.png');
    const res = await demo.fetch('/graphql', { method: 'POST', headers: { 'apollo-require-preflight': 'true' }, body: form });
    expect(res.status).toBe(400);
  });

  it('a reply refused on its first file (too large) is answered, the rest of its body is read, and the connection serves the next request', async () => {
    // The resolver stops reading at the first file's size limit and answers; the next file is then a stream nobody
    // reads. The gateway drops the rest of the body once it has answered (http/afterBody.ts dropBodyAfterAnswer):
    // without that the connection stopped being read, and a client that had sent it all and reused the connection
    // (undici under load) waited a minute for the server's request timeout to reset it (ECONNRESET in this file's
    // fast-check test). A raw connection sends the whole request and the next one at once, as such a client does.
    const ticketId = await newTicket(demo, 'Big files');
    const before = await attachmentCount();
    const boundary = 'fulcrum-two-files';
    const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const file = (name: string, data: Buffer) =>
      Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${name}.pdf"\r\nContent-Type: application/pdf\r\n\r\n`),
        data,
        Buffer.from('\r\n'),
      ]);
    const body = Buffer.concat([
      Buffer.from(field('operations', JSON.stringify({ query: REPLY, variables: { id: ticketId, body: 'Too big', files: [null, null] } }))),
      Buffer.from(field('map', JSON.stringify({ 0: ['variables.files.0'], 1: ['variables.files.1'] }))),
      file('0', Buffer.concat([PDF, Buffer.alloc(LIMITS.imageBytes)])),
      file('1', Buffer.concat([PDF, Buffer.alloc(1024 * 1024)])),
      Buffer.from(`--${boundary}--\r\n`),
    ]);
    const { hostname, port } = new URL(gw.url);
    const head = (length: number, type: string) =>
      `POST /graphql HTTP/1.1\r\nHost: ${hostname}:${port}\r\nCookie: ${demo.cookieHeader}\r\napollo-require-preflight: true\r\n` +
      `Content-Type: ${type}\r\nContent-Length: ${length}\r\n\r\n`;
    const next = JSON.stringify({ query: '{ __typename }' });
    const received = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), hostname);
      let text = '';
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`the connection's next request was not answered; received: ${text.slice(0, 300)}`));
      }, 10_000);
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString('latin1');
        if (text.includes('"__typename":"Query"')) {
          clearTimeout(timer);
          socket.end();
          resolve(text);
        }
      });
      socket.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      socket.write(head(body.length, `multipart/form-data; boundary=${boundary}`));
      socket.write(body);
      socket.write(head(Buffer.byteLength(next), 'application/json') + next);
    });
    const answers = received.split(/(?=HTTP\/1\.1 )/);
    expect(answers).toHaveLength(2);
    expect(answers[0]).toMatch(/^HTTP\/1\.1 200/);
    expect(answers[0]).toContain(JSON.stringify(MESSAGES.attachmentSize));
    expect(answers[0]).toContain('BAD_USER_INPUT');
    expect(answers[1]).toMatch(/^HTTP\/1\.1 200/);
    expect(await attachmentCount()).toBe(before);
  }, 20_000);

  it('bad counts, names, types and sizes are BAD_USER_INPUT on `attachments` and store nothing (fast-check)', async () => {
    const ticketId = await newTicket(demo, 'Bad files');
    const good = fc.constantFrom({ data: PNG, kind: 'ok' }, { data: JPEG, kind: 'ok' }, { data: PDF, kind: 'ok' });
    const bad = fc.oneof(
      fc.constant({ data: HTML_AS_PNG, kind: 'bad' }),
      fc.constant({ data: Buffer.alloc(0), kind: 'bad' }),
      fc.constant({ data: Buffer.concat([PNG, Buffer.from('<script>x</script>')]), kind: 'bad' }),
      fc.constant({ data: Buffer.concat([PDF, Buffer.alloc(LIMITS.imageBytes)]), kind: 'bad' }),
      fc.uint8Array({ minLength: 1, maxLength: 64 }).map((a) => ({ data: Buffer.from(a), kind: 'bad' })),
    );
    const goodName = fc.string({ minLength: 1, maxLength: 40 }).filter((n) => rules.validAttachmentName(n));
    const badName = fc.oneof(
      fc.constant(''),
      fc.constant('   '),
      fc.constant('../../etc/passwd'),
      fc.constant('a\\b.png'),
      fc.constant('line\r\nbreak.png'),
      fc.constant('x'.repeat(LIMITS.attachmentName.max + 1)),
    );
    const file = fc.record({
      content: fc.oneof({ weight: 3, arbitrary: good }, { weight: 1, arbitrary: bad }),
      name: fc.oneof({ weight: 4, arbitrary: goodName }, { weight: 1, arbitrary: badName }),
    });
    const runs = Number(process.env.FULCRUM_ATTACHMENT_RUNS ?? 60);
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(file, { minLength: 1, maxLength: LIMITS.replyAttachments.max + 2 }), async (files) => {
        const before = await attachmentCount();
        // Past the file limit the server refuses before the body has arrived; it reads the rest before it answers
        // (gateway/src/http/afterBody.ts), so the client always gets the 413 (it once saw a reset: fixed, and
        // gateway/test/http/earlyRefusal.test.ts proves it with a body still being sent).
        const result = await replyWith(
          demo,
          ticketId,
          'Files',
          files.map((f) => ({ data: f.content.data, name: f.name })),
        );
        expect(result.status).toBeLessThan(500);
        const names = files.map((f) => sentName(f.name));
        const expectOk =
          files.length <= LIMITS.replyAttachments.max &&
          files.every(
            (f, i) =>
              f.content.kind === 'ok' &&
              names[i].trim().length > 0 &&
              names[i].length <= LIMITS.attachmentName.max &&
              // eslint-disable-next-line no-control-regex
              !/[\u0000-\u001f\u007f/\\]/.test(names[i]),
          );
        if (expectOk) {
          expect(result.errors).toBeUndefined();
          expect(result.data?.replyToRequester.attachments.map((a: Data) => a.filename)).toEqual(names);
          expect(await attachmentCount()).toBe(before + files.length);
        } else {
          refused++;
          // Past the request's file limit the upload middleware answers 413 before GraphQL runs.
          if (files.length > LIMITS.replyAttachments.max && result.status === 413) {
            expect(result.errors?.[0]?.extensions?.code).toBe('PAYLOAD_TOO_LARGE');
            expect(await attachmentCount()).toBe(before);
            return;
          }
          const error = result.errors?.[0];
          expect(error?.extensions?.code).toBe('BAD_USER_INPUT');
          const message = error?.extensions?.fields?.attachments?.[0];
          expect([
            MESSAGES.attachmentCount,
            MESSAGES.attachmentName,
            MESSAGES.attachmentType,
            MESSAGES.attachmentSize,
            MESSAGES.imageDamaged,
            MESSAGES.imageDimensions,
            MESSAGES.imagePixels,
          ]).toContain(message);
          expect(await attachmentCount()).toBe(before);
        }
      }),
      { numRuns: runs },
    );
    expect(refused).toBeGreaterThan(0);
  }, 120_000);

  it('file names are stored without bidi controls or other format characters: agents’ replies and the requester page’s images', async () => {
    const ticketId = await newTicket(demo, 'Bidi names');
    const made = dataOf(
      await replyWith(demo, ticketId, 'Names', [
        { data: PDF, name: 'invoice\u202efdp.exe' },
        { data: PNG, name: '\u2066sc\u200breen\u2069\ufeff.png' },
      ]),
    ).replyToRequester;
    expect(made.attachments.map((a: Data) => a.filename)).toEqual(['invoicefdp.exe', 'screen.png']);
    // A name of nothing but such characters is no name.
    const empty = await replyWith(demo, ticketId, 'Names', [{ data: PDF, name: '\u202e\u200b' }]);
    expect(empty.errors?.[0]?.extensions?.fields?.attachments).toEqual([MESSAGES.attachmentName]);

    const link = dataOf(await demo.gql(`{ ticket(id: ${ticketId}) { requesterLink } }`)).ticket.requesterLink as string;
    const form = new FormData();
    form.append('body', 'My photo');
    form.append('images', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'photo\u202egnp.exe');
    const posted = await fetch(`${gw.url}${new URL(link).pathname}`, { method: 'POST', body: form, redirect: 'manual' });
    expect(posted.status).toBe(303);
    const nodes = dataOf(
      await demo.gql(`{ ticket(id: ${ticketId}) { timeline(filter: REPLIES) { nodes { ... on RequesterMessage { attachments { filename } } } } } }`),
    ).ticket.timeline.nodes as Data[];
    expect(nodes.flatMap((n) => n.attachments ?? []).map((a: Data) => a.filename)).toEqual(['photognp.exe']);
  });

  it('notes take no attachments', async () => {
    const ticketId = await newTicket(demo, 'Note files');
    const r = await demo.gqlUploads(
      'mutation ($id: Int!, $files: [Upload!]) { addTicketNote(ticketId: $id, body: "n", attachments: $files) { id } }',
      { id: ticketId },
      'files',
      [{ data: PNG, name: 'a.png' }],
    );
    expect(r.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });
});
