/**
 * HTML-only mail nested in a multipart (Outlook on the web sends an inline image as multipart/related holding only
 * text/html; a file makes it multipart/mixed) has the text a single-part HTML mail has: mailparser converts HTML
 * to text only for the latter, and such a mail used to open a ticket "(no text)". Found by the Postfix interop test.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseIncoming } from './incoming.js';

const PNG_BASE64 = 'iVBORw0KGgo=';

function nested(kind: 'related' | 'mixed', html: string): Buffer {
  const image =
    kind === 'related'
      ? ['Content-Type: image/png; name="shot.png"', 'Content-Disposition: inline; filename="shot.png"', 'Content-ID: <shot1>']
      : ['Content-Type: application/pdf; name="a.pdf"', 'Content-Disposition: attachment; filename="a.pdf"'];
  return Buffer.from(
    [
      'From: Ola <ola@example.test>',
      'Subject: x',
      'MIME-Version: 1.0',
      `Content-Type: multipart/${kind}; boundary="B"`,
      '',
      '--B',
      'Content-Type: text/html; charset=utf-8',
      '',
      html,
      '--B',
      ...image,
      'Content-Transfer-Encoding: base64',
      '',
      PNG_BASE64,
      '--B--',
      '',
    ].join('\r\n'),
  );
}
const single = (html: string) =>
  Buffer.from(['From: Ola <ola@example.test>', 'Subject: x', 'Content-Type: text/html; charset=utf-8', '', html, ''].join('\r\n'));

describe('HTML-only mail in a multipart', () => {
  it('has the text of its HTML part (multipart/related with an inline image, multipart/mixed with a file)', async () => {
    const html = '<div dir="ltr">The screen stays black.<br><img src="cid:shot1" alt="shot.png"></div>';
    for (const kind of ['related', 'mixed'] as const) expect((await parseIncoming(nested(kind, html))).text).toMatch(/^The screen stays black\./);
  });

  it('has, for any HTML-escaped words, the text the same HTML has as a single-part mail', async () => {
    const word = fc.stringMatching(/^[A-Za-z0-9äöü.,!?]{1,12}$/);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(word, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 4 }),
        fc.constantFrom('related', 'mixed'),
        async (lines, kind) => {
          const html = `<div>${lines.map((l) => l.join(' ')).join('<br>')}</div>`;
          const alone = (await parseIncoming(single(html))).text;
          expect(alone.length).toBeGreaterThan(0);
          expect((await parseIncoming(nested(kind, html))).text).toBe(alone);
        },
      ),
      { numRuns: 100 },
    );
  });
});
