/**
 * Reading bounces (docs/email.md "Bounces"): whatever a hostile mail carries, the reader never throws, quotes only
 * ids with angle brackets, and its reason is one line of at most 500 characters.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isBounce, readBounce } from './bounces.js';
import { parseIncoming } from './incoming.js';

describe('readBounce', () => {
  it('any mail: no throw, ids in angle brackets, a one-line reason of at most 500 characters', async () => {
    const line = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 120 }),
      fc.constantFrom('Message-ID: <reply-0123456789abcdef01234567@x.test>', 'Diagnostic-Code: smtp; 550 5.1.1 nope', 'Status: 5.2.2', '\t\tcontinued'),
      fc.string({ maxLength: 700 }).map((s) => `Diagnostic-Code: x; ${s}`),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 12 }), fc.constantFrom('', 'x@y.test', null), async (lines, envelope) => {
        const raw = Buffer.from(`From: MAILER-DAEMON@y.test\r\nSubject: failure\r\n\r\n${lines.join('\r\n')}\r\n`);
        const parsed = await parseIncoming(raw, envelope);
        expect(isBounce(raw, parsed, envelope)).toBe(true);
        const report = readBounce(raw, parsed);
        if (!report) return;
        for (const id of report.returnedIds) expect(id).toMatch(/^<[^<>\s]+>$/);
        expect(report.diagnostic).not.toMatch(/[\r\n]/);
        expect(report.diagnostic.length).toBeLessThanOrEqual(500);
        expect(report.diagnostic.length).toBeGreaterThan(0);
      }),
      { numRuns: 200 },
    );
  });
});
