/** Upload attacks and body size limits: refused with a clear error, nothing stored, served safely. */
import { crc32, deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ticket, TicketImage, demoTicketImage, rules } from '@fulcrum/schema';
import { startSignedIn, type TestGateway } from '../../src/testing/harness.js';
import type { TestClient } from '../../src/testing/client.js';
import { HTML_AS_PNG, JPEG, PNG, validTicket } from '../../src/testing/fixtures.js';
import { IMAGE_DAMAGED_MESSAGE } from '../../../schema/src/services/images.js';
import { figure } from '../../src/testing/measure.js';

const { MESSAGES, LIMITS } = rules;
let gw: TestGateway;
let demo: TestClient;
beforeAll(async () => ([gw, demo] = await startSignedIn(0)));
afterAll(() => gw.destroy());

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
/** A structurally valid PNG that declares any size (IHDR) over a tiny compressed body. */
function png(width: number, height: number, extra: Buffer[] = []): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    chunk('IHDR', ihdr),
    ...extra,
    chunk('IDAT', deflateSync(Buffer.alloc(1 + 3 * Math.min(width, 64)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The JPEG fixture with a COM segment after its APP0 header. */
function jpegWithComment(text: string): Buffer {
  const head = Buffer.from([0xff, 0xfe, 0, 0]);
  head.writeUInt16BE(text.length + 2, 2);
  return Buffer.concat([JPEG.subarray(0, 20), head, Buffer.from(text, 'latin1'), JPEG.subarray(20)]);
}

const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const WEBP = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');

const ATTACKS: { name: string; data: Buffer; type?: string; message: string; status?: number }[] = [
  { name: 'HTML named .png', data: HTML_AS_PNG, message: MESSAGES.imageType },
  {
    name: 'SVG with script named .png',
    data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(document.cookie)</script></svg>'),
    type: 'image/png',
    message: MESSAGES.imageType,
  },
  {
    name: 'SVG declared image/svg+xml',
    data: Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
    type: 'image/svg+xml',
    message: MESSAGES.imageType,
  },
  { name: 'polyglot: PNG + HTML appended', data: Buffer.concat([PNG, Buffer.from('<html><script>alert(1)</script></html>')]), message: IMAGE_DAMAGED_MESSAGE },
  {
    name: 'polyglot: PNG + ZIP appended',
    data: Buffer.concat([PNG, Buffer.from('504b0304140000000800', 'hex'), Buffer.alloc(40, 1)]),
    message: IMAGE_DAMAGED_MESSAGE,
  },
  {
    name: 'polyglot: PNG with a script in an early text chunk',
    data: png(16, 16, [chunk('tEXt', Buffer.from('Comment\0<script>alert(document.cookie)</script>'))]),
    message: IMAGE_DAMAGED_MESSAGE,
  },
  {
    name: 'polyglot: JPEG with HTML in a comment',
    data: jpegWithComment('<html><script>alert(document.cookie)</script></html>'),
    message: IMAGE_DAMAGED_MESSAGE,
  },
  { name: 'polyglot: GIF/JavaScript', data: Buffer.from('GIF89a/*\x00\x00\x00\x00*/=alert(document.cookie);//;', 'latin1'), message: MESSAGES.imageType },
  { name: 'truncated PNG', data: PNG.subarray(0, Math.floor(PNG.length / 2)), message: IMAGE_DAMAGED_MESSAGE },
  { name: 'truncated JPEG (no end marker)', data: JPEG.subarray(0, JPEG.length - 2), message: IMAGE_DAMAGED_MESSAGE },
  { name: 'truncated GIF', data: GIF.subarray(0, GIF.length - 4), message: IMAGE_DAMAGED_MESSAGE },
  {
    name: 'PNG with a broken CRC',
    data: Buffer.concat([PNG.subarray(0, 30), Buffer.from([PNG[30] ^ 0xff]), PNG.subarray(31)]),
    message: IMAGE_DAMAGED_MESSAGE,
  },
  { name: 'decompression bomb: 50,000 x 50,000 PNG', data: png(50_000, 50_000), message: MESSAGES.imageDimensions },
  { name: 'decompression bomb: 1 x 100,000 PNG', data: png(1, 100_000), message: MESSAGES.imageDimensions },
  // Each side within 8000, but 64 megapixels (192 MB decoded as RGB): over the 50-megapixel cap.
  { name: 'decompression bomb: 8000 x 8000 PNG', data: png(8000, 8000), message: MESSAGES.imagePixels },
  { name: 'one pixel over the cap: 8000 x 6251 PNG', data: png(8000, 6251), message: MESSAGES.imagePixels },
  { name: 'empty file', data: Buffer.alloc(0), message: MESSAGES.imageType },
  { name: 'over-size (5 MB + 1 byte)', data: Buffer.concat([PNG, Buffer.alloc(LIMITS.imageBytes + 1 - PNG.length)]), message: MESSAGES.imageSize, status: 413 },
];

async function counts() {
  const em = gw.orm.em.fork();
  return { images: await em.count(TicketImage, {}), tickets: await em.count(Ticket, {}) };
}

describe('upload attacks', () => {
  it('accepts real PNG, JPEG, GIF and WebP files', async () => {
    const ticket = (await demo.post('/api/tickets/create', validTicket(1))).body.id;
    // A photo's XMP metadata (an XML packet near the start) is not markup a browser would render.
    const xmp = '<?xml version="1.0"?><?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"></x:xmpmeta><?xpacket end="w"?>';
    const JPEG_XMP = jpegWithComment(xmp);
    for (const [data, mime] of [
      [PNG, 'image/png'],
      [demoTicketImage(2, 640, 480), 'image/png'],
      [JPEG, 'image/jpeg'],
      [JPEG_XMP, 'image/jpeg'],
      [Buffer.concat([JPEG, Buffer.alloc(32)]), 'image/jpeg'],
      [GIF, 'image/gif'],
      [WEBP, 'image/webp'],
    ] as const) {
      const r = await demo.upload('PUT', `/api/tickets/${ticket}/edit-image`, { data });
      expect(r.status, mime).toBe(201);
      const served = await demo.fetch(r.body.image);
      expect(served.headers.get('content-type')).toBe(mime);
    }
  });

  it('refuses every attack on REST and GraphQL with a clear error, and stores nothing', async () => {
    const ticket = (await demo.post('/api/tickets/create', validTicket(1))).body.id;
    expect((await demo.upload('POST', `/api/tickets/${ticket}/add-image`, { data: PNG })).status).toBe(201);
    const imageBefore = (await demo.get(`/api/tickets/${ticket}`)).body.tickets_images;
    const before = await counts();
    let tried = 0;
    let refused = 0;
    const create = 'mutation($i: TicketInput!, $img: Upload) { createTicket(input: $i, image: $img) { id } }';
    const update = 'mutation($id: Int!, $i: TicketInput!, $img: Upload) { updateTicket(id: $id, input: $i, image: $img) { id } }';
    const input = { title: 'attack', requesterId: 1, description: 'upload attack' };
    for (const attack of ATTACKS) {
      const file = { data: attack.data, name: 'avatar.png', type: attack.type ?? 'image/png' };
      const results = [
        await demo.upload('POST', `/api/tickets/${ticket}/add-image`, file),
        await demo.upload('PUT', `/api/tickets/${ticket}/edit-image`, file),
      ];
      for (const r of results) {
        tried++;
        expect(r.status, attack.name).toBe(attack.status ?? 400);
        expect(r.body.errors.image, attack.name).toEqual([attack.message]);
        refused++;
      }
      for (const r of [await demo.gqlUpload(create, { i: input }, 'img', file), await demo.gqlUpload(update, { id: ticket, i: input }, 'img', file)]) {
        tried++;
        expect(r.data, attack.name).toBeFalsy();
        const code = r.errors?.[0]?.extensions?.code;
        expect(code === 'BAD_USER_INPUT' || code === 'PAYLOAD_TOO_LARGE', `${attack.name}: ${code}`).toBe(true);
        expect(r.errors?.[0]?.message, attack.name).toBe(attack.message);
        refused++;
      }
    }
    // Too many files, and a file in the wrong field.
    const two = new FormData();
    two.append('image', new Blob([new Uint8Array(PNG)]), 'a.png');
    two.append('image', new Blob([new Uint8Array(PNG)]), 'b.png');
    const many = await demo.fetch(`/api/tickets/${ticket}/edit-image`, { method: 'PUT', body: two });
    tried++;
    expect(many.status).toBe(400);
    expect(((await many.json()) as { errors: { image: string[] } }).errors.image[0]).toMatch(/one image/);
    refused++;
    const wrongField = await demo.upload('PUT', `/api/tickets/${ticket}/edit-image`, { data: PNG }, 'file');
    tried++;
    expect(wrongField.status).toBe(400);
    refused++;
    const twoGql = new FormData();
    twoGql.append('operations', JSON.stringify({ query: create, variables: { i: input, img: null, x: null } }));
    twoGql.append('map', JSON.stringify({ 0: ['variables.img'], 1: ['variables.x'] }));
    twoGql.append('0', new Blob([new Uint8Array(PNG)]), 'a.png');
    twoGql.append('1', new Blob([new Uint8Array(PNG)]), 'b.png');
    const manyGql = await demo.fetch('/graphql', { method: 'POST', headers: { 'apollo-require-preflight': 'true' }, body: twoGql });
    tried++;
    expect(manyGql.status).toBeGreaterThanOrEqual(400);
    expect(manyGql.status).toBeLessThan(500);
    refused++;

    expect(await counts()).toEqual(before);
    expect((await demo.get(`/api/tickets/${ticket}`)).body.tickets_images).toEqual(imageBefore);
    figure(
      'upload attacks refused',
      `${refused} of ${tried} (${ATTACKS.length} kinds x REST add/edit + GraphQL create/update, too many files, wrong field); rows stored: 0`,
    );
  });

  it('the pixel cap: 50 megapixels pass on REST and GraphQL (a 48-megapixel phone photo too), one row more does not', async () => {
    const ticket = (await demo.post('/api/tickets/create', validTicket(1))).body.id;
    const update = 'mutation($id: Int!, $i: TicketInput!, $img: Upload) { updateTicket(id: $id, input: $i, image: $img) { id } }';
    const input = { title: 'pixels', requesterId: 1, description: 'pixel cap' };
    expect(8000 * 6250).toBe(LIMITS.imagePixels);
    for (const [width, height, ok] of [
      [8000, 6000, true],
      [8000, 6250, true],
      [6250, 8000, true],
      [8000, 6251, false],
      [7071, 7071, true],
      [7072, 7072, false],
    ] as const) {
      const file = { data: png(width, height) };
      const rest = await demo.upload('PUT', `/api/tickets/${ticket}/edit-image`, file);
      const gql = await demo.gqlUpload(update, { id: ticket, i: input }, 'img', file);
      const what = `${width} x ${height}`;
      if (ok) {
        expect(rest.status, what).toBe(201);
        expect(gql.data?.updateTicket?.id, what).toBe(ticket);
      } else {
        expect(rest.status, what).toBe(400);
        expect(rest.body, what).toEqual({ errors: { image: [MESSAGES.imagePixels] } });
        expect(gql.errors?.[0], what).toMatchObject({
          message: MESSAGES.imagePixels,
          extensions: { code: 'BAD_USER_INPUT', fields: { image: [MESSAGES.imagePixels] } },
        });
      }
    }
  });

  it('serves a stored image with its real type, nosniff, a safe inline name and a sandbox CSP', async () => {
    const ticket = (await demo.post('/api/tickets/create', validTicket(1))).body.id;
    const up = await demo.upload('POST', `/api/tickets/${ticket}/add-image`, { data: JPEG, name: '"><script>x</script>.html', type: 'text/html' });
    expect(up.status).toBe(201);
    const res = await demo.fetch(up.body.image);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="ticket-${ticket}.jpg"`);
    expect(res.headers.get('content-security-policy')).toMatch(/sandbox/);
    expect(Buffer.from(await res.arrayBuffer()).equals(JPEG)).toBe(true);
  });
});

describe('request body limits', () => {
  it('JSON over 100 kB on REST, over 1 MB on GraphQL, and multipart over 5 MB are refused with 413', async () => {
    const rest = await demo.rest('POST', '/api/macro/create', { name: 'big', description: 'x'.repeat(100 * 1024) });
    expect(rest.status).toBe(413);
    expect(rest.body).toEqual({ errors: { message: 'Request body is too large.' } });
    const fits = await demo.rest('POST', '/api/macro/create', { name: 'fits', description: 'x'.repeat(90 * 1024) });
    expect(fits.status).toBe(400); // parsed, then the 2000-character rule answers
    const gql = await demo.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ me { id } }', variables: { pad: 'x'.repeat(1024 * 1024) } }),
    });
    expect(gql.status).toBe(413);
    const ticket = (await demo.post('/api/tickets/create', validTicket(1))).body.id;
    const big = await demo.upload('PUT', `/api/tickets/${ticket}/edit-image`, { data: Buffer.alloc(LIMITS.imageBytes + 1) });
    expect(big.status).toBe(413);
    const bigGql = await demo.gqlUpload(
      'mutation($id: Int!, $i: TicketInput!, $img: Upload) { updateTicket(id: $id, input: $i, image: $img) { id } }',
      { id: ticket, i: { title: 't', requesterId: 1, description: 'too big' } },
      'img',
      { data: Buffer.alloc(LIMITS.imageBytes + 1) },
    );
    expect(bigGql.errors?.[0]?.extensions?.code).toBe('PAYLOAD_TOO_LARGE');
    figure('body limits', 'REST JSON 100 kB, GraphQL JSON 1 MB, uploads 5 MB (REST and GraphQL), 1 file per request: all answer 413/400 past the limit');
  });
});
