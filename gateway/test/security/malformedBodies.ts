/**
 * Malformed request bodies for the fuzz suite (fuzz.test.ts), as fast-check arbitraries: multipart without a
 * boundary, cut short, or under another boundary than its content type names; a body of a type the route does
 * not read; JSON that is invalid or cut short; urlencoded junk; a body past every route's size limit. And a raw
 * HTTP request that sends exactly these bytes and headers (fetch would fix up a content type or a length).
 */
import { request } from 'node:http';
import fc from 'fast-check';

export interface MalformedBody {
  shape: string;
  contentType: string | undefined;
  body: Buffer;
}

const CRLF = '\r\n';
/** A boundary as browsers write it (RFC 2046: 1 to 70 characters of a safe set). */
const boundary = fc.stringMatching(/^[0-9A-Za-z'()+_,./:=?-]{1,40}$/);
const partName = fc.oneof(fc.constantFrom('operations', 'map', '0', 'body', 'images', 'image', 'message', 'email'), fc.string({ maxLength: 8 }));
const part = fc.record({
  name: partName,
  file: fc.option(fc.constantFrom('a.png', 'x.jpg', '', 'ü"\\.gif'), { nil: undefined }),
  value: fc.oneof(
    fc.string({ maxLength: 60 }),
    fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString('latin1')),
  ),
});

/** A well-formed multipart body (its parts, then the closing delimiter) and where that closing delimiter starts. */
function multipart(b: string, parts: { name: string; file?: string; value: string }[]): { body: Buffer; closing: number } {
  const head = parts
    .map(
      (p) =>
        `--${b}${CRLF}Content-Disposition: form-data; name="${p.name.replace(/["\r\n]/g, '_')}"` +
        `${p.file === undefined ? '' : `; filename="${p.file.replace(/["\r\n]/g, '_')}"${CRLF}Content-Type: image/png`}${CRLF}${CRLF}${p.value}${CRLF}`,
    )
    .join('');
  return { body: Buffer.from(`${head}--${b}--${CRLF}`, 'latin1'), closing: Buffer.byteLength(head, 'latin1') };
}

const isJson = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

const multipartParts = fc.array(part, { maxLength: 4 });

/** A body as fast-check prints it in a counterexample: its shape, type, length and first bytes (not a megabyte). */
function described(shape: string, contentType: string | undefined, body: Buffer): MalformedBody {
  const preview = body.subarray(0, 80).toString('latin1');
  const value: MalformedBody = { shape, contentType, body };
  return Object.assign(value, { [fc.toStringMethod]: () => `${shape} (${JSON.stringify(contentType)}, ${body.length} bytes: ${JSON.stringify(preview)})` });
}
/** Urlencoded text with no letter in it, so it never names a field a route reads (`body`, `email`...). */
const junkChar = fc.constantFrom(..."%&=+;%%==&&0123456789_-.~!*'()ü€\u0000".split(''));

export const malformedBody: fc.Arbitrary<MalformedBody> = fc.oneof(
  fc
    .tuple(boundary, multipartParts, fc.constantFrom('multipart/form-data', 'multipart/form-data; charset=utf-8', 'multipart/form-data;'))
    .map(([b, parts, contentType]) => described('multipart without a boundary', contentType, multipart(b, parts).body)),
  fc.tuple(boundary, multipartParts, fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true })).map(([b, parts, at]) => {
    const { body, closing } = multipart(b, parts);
    return described('multipart cut short', `multipart/form-data; boundary=${b}`, body.subarray(0, Math.floor(at * closing)));
  }),
  fc
    .tuple(boundary, boundary, multipartParts)
    .filter(([a, b]) => a !== b && !a.startsWith(b) && !b.startsWith(a))
    .map(([a, b, parts]) => described('multipart under another boundary', `multipart/form-data; boundary=${a}`, multipart(b, parts).body)),
  fc
    .tuple(
      fc.constantFrom(
        'text/plain',
        'application/xml',
        'image/png',
        'application/octet-stream',
        '%%%/;;',
        'application/json; charset=klingon',
        'multipart/mixed',
        undefined,
      ),
      fc.uint8Array({ maxLength: 300 }),
    )
    .map(([contentType, bytes]) => described('a type the route does not read', contentType, Buffer.from(bytes))),
  fc
    .string({ maxLength: 80 })
    .filter((s) => !isJson(s))
    .map((s) => described('invalid JSON', 'application/json', Buffer.from(s))),
  fc
    .tuple(
      fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1, maxKeys: 4 }),
      fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
    )
    .map(([value, at]) => {
      const text = JSON.stringify(value);
      return described('JSON cut short', 'application/json', Buffer.from(text.slice(0, Math.floor(at * text.length))));
    }),
  fc.string({ unit: junkChar, maxLength: 200 }).map((s) => described('urlencoded junk', 'application/x-www-form-urlencoded', Buffer.from(s))),
  fc
    .constantFrom('application/json', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x')
    .map((contentType) =>
      described(
        'past every size limit',
        contentType,
        Buffer.from(
          `${contentType.startsWith('multipart') ? `--x${CRLF}Content-Disposition: form-data; name="body"${CRLF}${CRLF}` : '{"a":"'}${'x'.repeat(1_100_000)}`,
        ),
      ),
    ),
);

/**
 * A GraphQL multipart request (an operation with one file) cut anywhere before its closing delimiter: before its
 * `operations` and `map` are whole (the parser refuses it), or after them, once the operation runs (the file never
 * arrives, or stops mid-way).
 */
export function uploadCutShort(operations: unknown, file: Buffer): fc.Arbitrary<MalformedBody> {
  const b = 'fuzz-boundary';
  const head =
    `--${b}${CRLF}Content-Disposition: form-data; name="operations"${CRLF}${CRLF}${JSON.stringify(operations)}${CRLF}` +
    `--${b}${CRLF}Content-Disposition: form-data; name="map"${CRLF}${CRLF}{"0":["variables.image"]}${CRLF}` +
    `--${b}${CRLF}Content-Disposition: form-data; name="0"; filename="a.png"${CRLF}Content-Type: image/png${CRLF}${CRLF}`;
  const body = Buffer.concat([Buffer.from(head), file, Buffer.from(`${CRLF}--${b}--${CRLF}`)]);
  const closing = body.length - `--${b}--${CRLF}`.length;
  return fc
    .oneof(fc.integer({ min: 0, max: closing }), fc.integer({ min: head.length - 200, max: closing }))
    .map((at) => described('multipart upload cut short', `multipart/form-data; boundary=${b}`, body.subarray(0, at)));
}

export interface RawAnswer {
  status: number;
  text: string;
  type: string | null;
}

/** One request with exactly these headers and bytes (a Content-Length of the bytes sent). */
export function rawRequest(port: string | number, method: string, path: string, headers: Record<string, string>, body?: string | Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, text, type: res.headers['content-type'] ?? null }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
