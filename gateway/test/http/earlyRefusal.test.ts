/**
 * A refusal sent before the request's body has arrived (past the upload limits, a body too large) reaches the client
 * as the answer it is, not as a reset connection: the gateway reads the rest of the body (and drops it) before it
 * answers (gateway/src/http/afterBody.ts). Without that, Node closes the connection while the client is still
 * sending, the client's writes fail (EPIPE / ECONNRESET) and it may never read the 413 and its message. Each test
 * streams a body in chunks over a raw connection after the point where the server refuses it, and expects every
 * byte written and the server's answer read. SQLite, or PostgreSQL + Redis in the second pass.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rules } from '@fulcrum/schema';
import { startTestGateway, type TestGateway } from '../../src/testing/harness.js';
import { dataOf, type TestClient } from '../../src/testing/client.js';
import { PNG } from '../../src/testing/fixtures.js';

let gw: TestGateway;
let demo: TestClient;
beforeAll(async () => {
  gw = await startTestGateway();
  demo = await gw.as(0);
}, 60_000);
afterAll(() => gw?.destroy());

interface Outcome {
  status: number;
  body: string;
  written: number;
  writeError?: string;
}

/**
 * POSTs `head`, then `chunks` chunks of `chunkSize` bytes (one per event-loop turn, so the server answers while the
 * rest is still being sent), then `tail`. Resolves with the answer and how much was written.
 */
function postSlowly(path: string, headers: Record<string, string>, head: string, chunks: number, chunkSize: number, tail: string): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, gw.url);
    let written = 0;
    let writeError: string | undefined;
    let answer: { status: number; body: string } | undefined;
    let ended = false;
    const settle = () => {
      if (answer && (ended || writeError)) resolve({ ...answer, written, writeError });
    };
    const req = request(url, { method: 'POST', headers: { ...headers, 'transfer-encoding': 'chunked' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => {
        answer = { status: res.statusCode ?? 0, body };
        settle();
      });
      res.on('error', reject);
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      writeError = error.code ?? error.message;
      if (!answer) resolve({ status: 0, body: '', written, writeError });
      else settle();
    });
    const chunk = Buffer.alloc(chunkSize, 0x61);
    const write = (data: Buffer | string) => new Promise<void>((ok) => (req.write(data) ? setImmediate(ok) : req.once('drain', ok)));
    void (async () => {
      await write(head);
      written += Buffer.byteLength(head);
      for (let i = 0; i < chunks && !writeError && !req.destroyed; i++) {
        await write(chunk);
        written += chunk.length;
      }
      if (writeError || req.destroyed) return;
      req.end(tail, () => {
        written += Buffer.byteLength(tail);
        ended = true;
        settle();
      });
    })();
  });
}

const BOUNDARY = 'fulcrum-early-refusal';
const part = (name: string, value: string) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const filePart = (name: string) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${name}.png"\r\nContent-Type: image/png\r\n\r\n`;

describe('a refusal before the body has arrived', () => {
  it('GraphQL: more files than allowed is a 413 with its message, read after the whole body was sent', async () => {
    const files = rules.LIMITS.replyAttachments.max + 1;
    const map = Object.fromEntries(Array.from({ length: files }, (_, i) => [String(i), [`variables.files.${i}`]]));
    const operations = JSON.stringify({
      query: 'mutation ($files: [Upload!]) { replyToRequester(ticketId: 1, body: "x", attachments: $files) { id } }',
      variables: { files: Array.from({ length: files }, () => null) },
    });
    const head = part('operations', operations) + part('map', JSON.stringify(map)) + filePart('0');
    const outcome = await postSlowly(
      '/graphql',
      { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, cookie: demo.cookieHeader, 'apollo-require-preflight': 'true' },
      head,
      400,
      16 * 1024,
      `\r\n--${BOUNDARY}--\r\n`,
    );
    expect(outcome.writeError).toBeUndefined();
    expect(outcome.status).toBe(413);
    expect(JSON.parse(outcome.body).errors[0]).toMatchObject({ extensions: { code: 'PAYLOAD_TOO_LARGE' } });
    expect(outcome.written).toBeGreaterThan(400 * 16 * 1024);
  });

  it('REST: a JSON body over the limit is a 413 with its message, read after the whole body was sent', async () => {
    const outcome = await postSlowly(
      '/api/tickets/create',
      { 'content-type': 'application/json', cookie: demo.cookieHeader },
      '{"title":"',
      400,
      16 * 1024,
      '"}',
    );
    expect(outcome.writeError).toBeUndefined();
    expect(outcome.status).toBe(413);
    expect(outcome.body).toContain('too large');
  });

  it('the requester page: an image over the size limit is refused on the page (413, its message), read after the whole body was sent', async () => {
    const id = dataOf(
      await demo.gqlUpload(
        'mutation ($input: TicketInput!, $image: Upload) { createTicket(input: $input, image: $image) { id } }',
        { input: { title: 'Early refusal', requesterId: 1, description: 'The tray is stuck.' } },
        'image',
        { data: PNG },
      ),
    ).createTicket.id as number;
    const link = dataOf(await demo.gql(`{ ticket(id: ${id}) { requesterLink } }`)).ticket.requesterLink as string;
    const chunks = Math.ceil(rules.LIMITS.imageBytes / (16 * 1024)) + 100;
    const outcome = await postSlowly(
      new URL(link).pathname,
      { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      part('body', 'Here is a photo.') + filePart('images'),
      chunks,
      16 * 1024,
      `\r\n--${BOUNDARY}--\r\n`,
    );
    expect(outcome.writeError).toBeUndefined();
    expect(outcome.status).toBe(413);
    expect(outcome.body).toContain(rules.MESSAGES.imageSize);
    expect(outcome.written).toBeGreaterThan(rules.LIMITS.imageBytes);
  });
});
