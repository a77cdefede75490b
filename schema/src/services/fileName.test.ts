import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { storedFileName } from './fileName.js';

/** Format (Cf) and control (Cc) characters a stored name never keeps. */
const INVISIBLE = [
  '\u202e',
  '\u202a',
  '\u202d',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\u200b',
  '\u200e',
  '\u200f',
  '\ufeff',
  '\u00ad',
  '\u0007',
  '\u007f',
  '\u0085',
];

describe('stored file names', () => {
  it('drops bidi controls and other invisible characters', () => {
    expect(storedFileName('invoice\u202efdp.exe')).toBe('invoicefdp.exe');
    expect(storedFileName('\ufeffre\u200bport.pdf\u2069')).toBe('report.pdf');
    expect(storedFileName('cafe\u0301.png')).toBe('café.png');
  });

  it('any name: no Cf or Cc character is left, and the visible rest is kept in order', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 4 }), fc.constantFrom(...INVISIBLE)), { maxLength: 20 }), (parts) => {
        const name = parts.join('');
        const stored = storedFileName(name);
        expect(stored).not.toMatch(/[\p{Cf}\p{Cc}]/u);
        expect(stored).toBe(name.normalize('NFC').replace(/[\p{Cf}\p{Cc}]/gu, ''));
      }),
      { numRuns: 500 },
    );
  });
});
