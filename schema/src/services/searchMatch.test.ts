/**
 * The snippet of Ticket.searchMatch: the first place matching, plain text with the matched words as ranges (fast-check:
 * never throws, every range lies in the snippet and covers a word the search matches).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { firstMatch, snippetOf, type Snippet } from './searchMatch.js';

const marked = (s: Snippet) => s.highlights.map((h) => s.snippet.slice(h.start, h.start + h.length));
const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

describe('searchMatch snippets', () => {
  it('finds the first place in order and gives the words as ranges (case, accents and prefixes as the index has them)', () => {
    const match = firstMatch('printer', [
      ['TITLE', 'Broken'],
      ['DESCRIPTION', 'The Printers on floor 2 jam.'],
    ])!;
    expect([match.in, match.snippet, marked(match)]).toEqual(['DESCRIPTION', 'The Printers on floor 2 jam.', ['Printers']]);
    expect(marked(firstMatch('resume', [['TITLE', 'Mon résumé est perdu']])!)).toEqual(['résumé']);
    expect(firstMatch('zzz', [['TITLE', 'nothing here']])).toBeNull();
    const long = snippetOf(`${'lead '.repeat(30)}needle ${'tail '.repeat(30)}`, ['needle'])!;
    expect(long.snippet).toMatch(/^….*needle.*…$/);
    expect(marked(long)).toEqual(['needle']);
  });

  it('never throws; every range lies in the snippet and covers a matching word (random texts and searches)', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', 'é', ' ', '[', ']', '\n', 'x', '1', '<'), maxLength: 200 });
    fc.assert(
      fc.property(text, fc.stringMatching(/^[abx1é]{1,4}$/), (t, word) => {
        const found = snippetOf(t, [word]);
        if (found === null) return;
        expect(found.highlights.length).toBeGreaterThan(0);
        for (const h of found.highlights) expect(h.start + h.length).toBeLessThanOrEqual(found.snippet.length);
        for (const m of marked(found)) expect(word.length >= 2 ? fold(m).startsWith(fold(word)) : fold(m) === fold(word)).toBe(true);
      }),
      { numRuns: 400 },
    );
  });
});
