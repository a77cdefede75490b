/**
 * The client shapes of the Postfix interop test: small mails written for this project in the shapes real clients
 * send (Gmail, Outlook desktop and web, Apple Mail, Thunderbird, iOS), in the charsets and transfer encodings
 * that reach a help desk (windows-1252, ISO-2022-JP, Shift_JIS, base64, quoted-printable, encoded words), with
 * the parts they carry (inline images, PDFs, zips, a forwarded .eml, an S/MIME signature); postfixServerShapes.ts
 * has the shapes mail servers give mail. Each names what docs/email.md promises it becomes. Built per run: every
 * mail gets a fresh Message-ID, so a second run is new mail.
 *
 * The Japanese bytes are written out (ISO-2022-JP, Shift_JIS) rather than encoded at run time: Node encodes
 * neither, and a fixture should not need the decoder under test to be written.
 */
import { crc32 } from 'node:zlib';
import { PNG } from '../../src/testing/fixtures.js';

export interface Expected {
  outcome: 'TICKET' | 'LOOP';
  /** Of automatic mail: the cause it is listed with for admins. */
  reason?: string;
  title?: string;
  description?: string;
  requester?: { name: string; email: string };
  files?: { filename: string; mimeType: string }[];
  image?: boolean;
}

export interface Shape {
  name: string;
  /** The envelope sender (`''`: a bounce, `MAIL FROM:<>`). */
  sender: string;
  raw(messageId: string): Buffer;
  expected: Expected;
}

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

/** A zip holding one stored file (a local header, its data, the central directory and its end). */
function zipOf(name: string, content: string): Buffer {
  const data = Buffer.from(content);
  const file = Buffer.from(name);
  const crc = crc32(data);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(10, 4);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(file.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(10, 6);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(file.length, 28);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + file.length, 12);
  end.writeUInt32LE(local.length + file.length + data.length, 16);
  return Buffer.concat([local, file, data, central, file, end]);
}
const ZIP = zipOf('log.txt', 'error 42 at startup\n');

const b64 = (bytes: Buffer | string) => (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes)).toString('base64').replace(/.{76}/g, '$&\r\n');
/** A mail from its lines (CRLF), as UTF-8, or as Latin-1 bytes for 8-bit legacy charsets written as \x.. escapes. */
export const eml = (lines: string[], encoding: 'utf8' | 'latin1' = 'utf8') => Buffer.from(lines.join('\r\n') + '\r\n', encoding);
const date = 'Date: Mon, 7 Dec 2026 09:15:00 +0100';

/** A person's new mail: the headers every client writes, then the client's own. */
export const head = (from: string, subject: string, messageId: string, ...more: string[]) => [
  `From: ${from}`,
  'To: Fulcrum Help <help@fulcrum.test>',
  `Subject: ${subject}`,
  date,
  `Message-ID: ${messageId}`,
  'MIME-Version: 1.0',
  ...more,
];

export const ticket = (title: string, description: string, more: Omit<Expected, 'outcome' | 'title' | 'description'> = {}): Expected => ({
  outcome: 'TICKET',
  title,
  description,
  ...more,
});
export const loop = (reason: string): Expected => ({ outcome: 'LOOP', reason });

/** People's mail from their clients: each a new ticket. */
export const CLIENT_SHAPES: Shape[] = [
  {
    name: 'Gmail: multipart/alternative, UTF-8 quoted-printable, HTML with dir=ltr',
    sender: 'gia@good.test',
    raw: (id) =>
      eml([
        ...head('Gia Rossi <gia@good.test>', 'Cannot export my report', id, 'Content-Type: multipart/alternative; boundary="000000000000a1b2c3"'),
        '',
        '--000000000000a1b2c3',
        'Content-Type: text/plain; charset="UTF-8"',
        'Content-Transfer-Encoding: quoted-printable',
        '',
        'The export button does nothing =E2=80=94 tried Chrome and Firefox.',
        '',
        '--000000000000a1b2c3',
        'Content-Type: text/html; charset="UTF-8"',
        'Content-Transfer-Encoding: quoted-printable',
        '',
        '<div dir=3D"ltr">The export button does nothing =E2=80=94 tried Chrome and Firefox.</div>',
        '',
        '--000000000000a1b2c3--',
      ]),
    expected: ticket('Cannot export my report', 'The export button does nothing — tried Chrome and Firefox.', {
      requester: { name: 'Gia Rossi', email: 'gia@good.test' },
    }),
  },
  {
    name: 'Outlook on the web: HTML only with an inline image (multipart/related, cid), the ticket image',
    sender: 'owen@good.test',
    raw: (id) =>
      eml([
        ...head('Owen <owen@good.test>', 'Screenshot of the error', id, 'Content-Type: multipart/related; boundary="000000000000rel"'),
        '',
        '--000000000000rel',
        'Content-Type: text/html; charset="UTF-8"',
        '',
        '<html><body><div style="font-family: Aptos">See the screenshot.<br><img src="cid:ii_lq1" alt="error.png"></div></body></html>',
        '--000000000000rel',
        'Content-Type: image/png; name="error.png"',
        'Content-Disposition: inline; filename="error.png"',
        'Content-Transfer-Encoding: base64',
        'Content-ID: <ii_lq1>',
        '',
        b64(PNG),
        '--000000000000rel--',
      ]),
    expected: ticket('Screenshot of the error', 'See the screenshot.', { image: true }),
  },
  {
    name: 'Outlook desktop: us-ascii QP with MsoNormal HTML, Thread-Index, a PDF attached',
    sender: 'otto@good.test',
    raw: (id) =>
      eml([
        ...head(
          '"Otto Berg" <otto@good.test>',
          'Invoice 2026-118',
          id,
          'Thread-Topic: Invoice 2026-118',
          'Thread-Index: AdtIuBUAmX1LwQ6uR0yq3bq5lS1bGg==',
          'Content-Language: en-US',
          'X-MS-Has-Attach: yes',
          'Content-Type: multipart/mixed; boundary="_004_AM0PR01MB"',
        ),
        '',
        '--_004_AM0PR01MB',
        'Content-Type: multipart/alternative; boundary="_000_AM0PR01MB"',
        '',
        '--_000_AM0PR01MB',
        'Content-Type: text/plain; charset="us-ascii"',
        'Content-Transfer-Encoding: quoted-printable',
        '',
        'Hello,',
        '',
        'the attached invoice lists 12 seats; we have 10. Please correct it so our acc=',
        'ounting can pay.',
        '',
        '--_000_AM0PR01MB',
        'Content-Type: text/html; charset="us-ascii"',
        'Content-Transfer-Encoding: quoted-printable',
        '',
        '<html><body><p class=3D"MsoNormal">Hello,</p><p class=3D"MsoNormal">the attached invoice lists 12 seats</p></body></html>',
        '',
        '--_000_AM0PR01MB--',
        '',
        '--_004_AM0PR01MB',
        'Content-Type: application/pdf; name="Invoice 2026-118.pdf"',
        'Content-Disposition: attachment; filename="Invoice 2026-118.pdf"',
        'Content-Transfer-Encoding: base64',
        '',
        b64(PDF),
        '--_004_AM0PR01MB--',
      ]),
    expected: ticket('Invoice 2026-118', 'Hello,\n\nthe attached invoice lists 12 seats; we have 10. Please correct it so our accounting can pay.', {
      requester: { name: 'Otto Berg', email: 'otto@good.test' },
      files: [{ filename: 'Invoice 2026-118.pdf', mimeType: 'application/pdf' }],
    }),
  },
  {
    name: 'Outlook on the web: HTML only, base64',
    sender: 'owen@good.test',
    raw: (id) =>
      eml([
        ...head('Owen <owen@good.test>', 'VPN drops every hour', id, 'Content-Type: text/html; charset="utf-8"', 'Content-Transfer-Encoding: base64'),
        '',
        b64('<html><body><div style="font-family: Aptos">The VPN drops every hour, on the hour.</div></body></html>'),
      ]),
    expected: ticket('VPN drops every hour', 'The VPN drops every hour, on the hour.'),
  },
  {
    name: 'Apple Mail: text/plain QP with Apple-Mail boundary and a zip attached',
    sender: 'ada@good.test',
    raw: (id) =>
      eml([
        ...head(
          'Ada Lind <ada@good.test>',
          'App crashes on start',
          id,
          'X-Mailer: Apple Mail (2.3774.300.61.1.2)',
          'Content-Type: multipart/mixed; boundary="Apple-Mail=_5C3D7E4A-1B2C-4D5E-8F90-ABCDEF012345"',
        ).map((l) => (l === 'MIME-Version: 1.0' ? 'Mime-Version: 1.0 (Mac OS X Mail 16.0 \\(3774.300.61.1.2\\))' : l)),
        '',
        '--Apple-Mail=_5C3D7E4A-1B2C-4D5E-8F90-ABCDEF012345',
        'Content-Transfer-Encoding: quoted-printable',
        'Content-Type: text/plain; charset=utf-8',
        '',
        'The app crashes right after the splash screen. The log is attached =F0=9F=99=8F',
        '',
        '--Apple-Mail=_5C3D7E4A-1B2C-4D5E-8F90-ABCDEF012345',
        'Content-Disposition: attachment; filename=logs.zip',
        'Content-Type: application/zip; x-unix-mode=0644; name="logs.zip"',
        'Content-Transfer-Encoding: base64',
        '',
        b64(ZIP),
        '--Apple-Mail=_5C3D7E4A-1B2C-4D5E-8F90-ABCDEF012345--',
      ]),
    expected: ticket('App crashes on start', 'The app crashes right after the splash screen. The log is attached 🙏', {
      files: [{ filename: 'logs.zip', mimeType: 'application/zip' }],
    }),
  },
  {
    name: 'Thunderbird: format=flowed, 8-bit UTF-8',
    sender: 'tom@good.test',
    raw: (id) =>
      eml([
        ...head(
          'Tom Müller <tom@good.test>',
          'Passwort zurücksetzen',
          id,
          'User-Agent: Mozilla Thunderbird',
          'Content-Language: de-DE',
          'Content-Type: text/plain; charset=UTF-8; format=flowed',
          'Content-Transfer-Encoding: 8bit',
        ),
        '',
        'Ich kann mein Passwort nicht zurücksetzen, der Link in der Mail ist ',
        'abgelaufen.',
      ]),
    expected: ticket('Passwort zurücksetzen', 'Ich kann mein Passwort nicht zurücksetzen, der Link in der Mail ist abgelaufen.', {
      requester: { name: 'Tom Müller', email: 'tom@good.test' },
    }),
  },
  {
    name: 'iOS Mail: multipart/alternative with "Sent from my iPhone"',
    sender: 'ivy@good.test',
    raw: (id) =>
      eml([
        ...head(
          'Ivy <ivy@good.test>',
          'Order 5521 not arrived',
          id,
          'X-Mailer: iPhone Mail (22B83)',
          'Content-Type: multipart/alternative; boundary=Apple-Mail-1A2B',
        ),
        '',
        '--Apple-Mail-1A2B',
        'Content-Type: text/plain; charset=us-ascii',
        'Content-Transfer-Encoding: 7bit',
        '',
        'My order 5521 has not arrived yet.',
        '',
        'Sent from my iPhone',
        '--Apple-Mail-1A2B',
        'Content-Type: text/html; charset=us-ascii',
        '',
        '<html><body dir="auto">My order 5521 has not arrived yet.<br><br><div>Sent from my iPhone</div></body></html>',
        '--Apple-Mail-1A2B--',
      ]),
    // "Sent from my iPhone" is a signature: removed with the quoted history.
    expected: ticket('Order 5521 not arrived', 'My order 5521 has not arrived yet.'),
  },
  {
    name: 'windows-1252, 8-bit, with curly quotes and accents (an older Outlook)',
    sender: 'rene@good.test',
    raw: (id) =>
      eml(
        [
          ...head(
            '=?windows-1252?Q?Ren=E9_Dupont?= <rene@good.test>',
            '=?windows-1252?Q?Facture_erron=E9e?=',
            id,
            'Content-Type: text/plain; charset="windows-1252"',
            'Content-Transfer-Encoding: 8bit',
          ),
          '',
          'La facture indique \x93pay\xe9e\x94 mais le compte dit le contraire \x96 merci de v\xe9rifier.',
        ],
        'latin1',
      ),
    expected: ticket('Facture erronée', 'La facture indique “payée” mais le compte dit le contraire – merci de vérifier.'),
  },
  {
    name: 'ISO-2022-JP: a B-encoded subject and a 7-bit JIS body (Japanese clients)',
    sender: 'kenji@good.test',
    raw: (id) =>
      eml([
        ...head(
          'kenji@good.test',
          '=?ISO-2022-JP?B?GyRCQEE1YT1xJEskRCQkJEYbKEI=?=',
          id,
          'Content-Type: text/plain; charset=ISO-2022-JP',
          'Content-Transfer-Encoding: 7bit',
        ),
        '',
        '\x1b$B@A5a=q$N6b3[$,0c$$$^$9!#\x1b(B',
      ]),
    expected: ticket('請求書について', '請求書の金額が違います。'),
  },
  {
    name: 'Shift_JIS: a B-encoded subject and a base64 body',
    sender: 'yuki@good.test',
    raw: (id) =>
      eml([
        ...head('yuki@good.test', '=?Shift_JIS?B?lHqRl4LMkniC6g==?=', id, 'Content-Type: text/plain; charset=Shift_JIS', 'Content-Transfer-Encoding: base64'),
        '',
        'lHqRl4KqkniC6oLEgqKC3IK3gUI=',
      ]),
    expected: ticket('配送の遅れ', '配送が遅れています。'),
  },
  {
    name: 'encoded words: a Q-encoded display name and a subject split over B and Q words with an emoji',
    sender: 'zoe@good.test',
    raw: (id) =>
      eml([
        ...head(
          '=?UTF-8?Q?Zo=C3=AB_=C3=85str=C3=B6m?= <zoe@good.test>',
          '=?UTF-8?B?8J+UpSBTZXJ2ZXIg?=\r\n =?UTF-8?Q?down_=E2=80=93_urgent?=',
          id,
          'Content-Type: text/plain; charset=utf-8',
          'Content-Transfer-Encoding: base64',
        ),
        '',
        b64('The server answers 502 since 9:00.'),
      ]),
    expected: ticket('🔥 Server down – urgent', 'The server answers 502 since 9:00.', { requester: { name: 'Zoë Åström', email: 'zoe@good.test' } }),
  },
  {
    name: 'a forwarded mail attached as .eml (message/rfc822)',
    sender: 'fred@good.test',
    raw: (id) =>
      eml([
        ...head('Fred <fred@good.test>', 'Fwd: Phishing?', id, 'Content-Type: multipart/mixed; boundary="fwd-boundary"'),
        '',
        '--fwd-boundary',
        'Content-Type: text/plain; charset=utf-8',
        '',
        'Is the attached mail really from you?',
        '--fwd-boundary',
        'Content-Type: message/rfc822; name="Your account.eml"',
        'Content-Disposition: attachment; filename="Your account.eml"',
        '',
        'From: Security <security@bank.test>',
        'To: fred@good.test',
        'Subject: Your account',
        'Message-ID: <phish-1@bank.test>',
        '',
        'Click here to keep your account.',
        '--fwd-boundary--',
      ]),
    expected: ticket('Fwd: Phishing?', 'Is the attached mail really from you?', {
      // Typed by its bytes: a text file with no signature.
      files: [{ filename: 'Your account.eml', mimeType: 'application/octet-stream' }],
    }),
  },
  {
    name: 'S/MIME: multipart/signed with an application/pkcs7-signature part',
    sender: 'sam@good.test',
    raw: (id) =>
      eml([
        ...head(
          'Sam <sam@good.test>',
          'Signed request: new account',
          id,
          'Content-Type: multipart/signed; protocol="application/pkcs7-signature"; micalg=sha-256; boundary="ms010203"',
        ),
        '',
        'This is a cryptographically signed message in MIME format.',
        '',
        '--ms010203',
        'Content-Type: text/plain; charset=UTF-8',
        'Content-Transfer-Encoding: 7bit',
        '',
        'Please create an account for our new colleague.',
        '',
        '--ms010203',
        'Content-Type: application/pkcs7-signature; name="smime.p7s"',
        'Content-Transfer-Encoding: base64',
        'Content-Disposition: attachment; filename="smime.p7s"',
        'Content-Description: S/MIME Cryptographic Signature',
        '',
        b64(Buffer.from([0x30, 0x82, 0x01, 0x0a, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x02, 0xa0, ...Array(40).fill(7)])),
        '--ms010203--',
      ]),
    expected: ticket('Signed request: new account', 'Please create an account for our new colleague.', {
      files: [{ filename: 'smime.p7s', mimeType: 'application/octet-stream' }],
    }),
  },
];
