/**
 * The mail reading helpers: whatever a hostile mail carries, what is stored is one line where it must be,
 * has no NUL and no lone surrogate, and the names and titles fit the spec's lengths.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../validation/rules.js';
import { customerNameFor, ticketDescriptionFor, ticketTitleFor } from '../services/incomingMail.js';
import { clean, cut, isOurMessageId, oneLine, parseIncoming, STRIP_WINDOW, strippedText } from './incoming.js';

const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const anyText = fc.oneof(fc.string({ unit: 'binary', maxLength: 300 }), fc.string({ unit: 'grapheme', maxLength: 300 }));

describe('mail text helpers', () => {
  it('strips quoted history and reads only the head of a long text: what is kept of any mail is its first 10,000 characters', () => {
    const answer = 'It also jams on page two.';
    expect(strippedText(`${answer}\n\nOn Monday, Walk wrote:\n> The printer jams.\n> Every page.\n`)).toBe(answer);
    // A reply longer than the window: its head is kept whole, up to the window, at a line break; nothing of the
    // quoted history beyond it is read or shown.
    const line = 'The queue keeps every job and the printer shows the same error again.';
    const long = Array.from({ length: 2000 }, (_, i) => `${i} ${line}`).join('\n');
    const stripped = strippedText(`${long}\n\nOn Monday, Walk wrote:\n> secret quoted history\n`);
    expect(stripped.length).toBeGreaterThan(LIMITS.ticketNote.max);
    expect(stripped.length).toBeLessThanOrEqual(STRIP_WINDOW);
    expect(long.startsWith(stripped)).toBe(true);
    expect(stripped).not.toContain('secret quoted history');
  });

  it('clean, oneLine and cut never leave a NUL, a lone surrogate or (oneLine) a line break; cut never grows', () => {
    fc.assert(
      fc.property(anyText, fc.integer({ min: 1, max: 400 }), (text, max) => {
        for (const out of [clean(text), oneLine(text), cut(clean(text), max)]) {
          expect(out).not.toContain('\u0000');
          expect(loneSurrogate.test(out)).toBe(false);
        }
        expect(oneLine(text)).not.toMatch(/[\r\n]/);
        expect(cut(clean(text), max).length).toBeLessThanOrEqual(max);
      }),
      { numRuns: 500 },
    );
  });

  it('customer names are 2 to 50 characters, titles 1 to 40, descriptions 3 to 2,000, whatever the mail says', () => {
    fc.assert(
      fc.property(anyText, fc.emailAddress(), anyText, (display, address, text) => {
        const name = customerNameFor(oneLine(display), address);
        expect(name.length).toBeGreaterThanOrEqual(LIMITS.customerName.min);
        expect(name.length).toBeLessThanOrEqual(LIMITS.customerName.max);
        const title = ticketTitleFor(oneLine(text));
        expect(title.trim().length).toBeGreaterThanOrEqual(1);
        expect(title.length).toBeLessThanOrEqual(LIMITS.ticketTitle.max);
        const description = ticketDescriptionFor(clean(text));
        expect(description.trim().length).toBeGreaterThanOrEqual(LIMITS.ticketDescription.min);
        expect(description.length).toBeLessThanOrEqual(LIMITS.ticketDescription.max);
      }),
      { numRuns: 500 },
    );
    expect(ticketTitleFor('')).toBe('(no subject)');
    expect(ticketDescriptionFor(' a ')).toBe('(no text)');
    expect(customerNameFor('', 'x@y.test')).toBe('x@y.test');
    expect(customerNameFor(' "Ann" ', 'ann@y.test')).toBe('Ann');
  });

  it('our Message-IDs are recognised under our host only', () => {
    expect(isOurMessageId(`<ticket-12.${'b'.repeat(32)}@help.example.com>`, 'help.example.com')).toBe(true);
    expect(isOurMessageId('<ticket-12@help.example.com>', 'help.example.com')).toBe(true);
    expect(isOurMessageId('<ticket-12@evil.test>', 'help.example.com')).toBe(false);
    expect(isOurMessageId(`<reply-${'a'.repeat(24)}@help.example.com>`, 'help.example.com')).toBe(true);
    expect(isOurMessageId('<reply-abc@help.example.com>', 'help.example.com')).toBe(false);
  });

  it('any bytes parse to a record (never a throw): a subject on one line, no NUL', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 3000 }), anyText, async (bytes, subject) => {
        const raw = Buffer.concat([Buffer.from(`Subject: ${subject}\r\nFrom: ${subject}\r\n`), Buffer.from(bytes)]);
        const parsed = await parseIncoming(raw);
        expect(parsed.subject).not.toMatch(/[\r\n]/);
        expect(parsed.subject).not.toContain('\u0000');
        expect(parsed.text).not.toContain('\u0000');
        expect(parsed.fromAddress === null || /^[^\s@]+@[^\s@]+$/.test(parsed.fromAddress)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
