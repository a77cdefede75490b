/**
 * A search result's snippet pieces: joined they are the snippet, whatever ranges come, and each highlighted piece is
 * exactly one of the ranges given (in order); ranges that overlap, are empty or reach past the snippet are left out.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MATCHED_IN, matchedIn, snippetPieces } from './searchMatchText';

describe('snippetPieces', () => {
  it('marks the given ranges and keeps the text around them', () => {
    expect(
      snippetPieces('…the zebra ate a Zebra cake', [
        { start: 5, length: 5 },
        { start: 17, length: 5 },
      ]),
    ).toEqual([
      { text: '…the ', marked: false },
      { text: 'zebra', marked: true },
      { text: ' ate a ', marked: false },
      { text: 'Zebra', marked: true },
      { text: ' cake', marked: false },
    ]);
    expect(snippetPieces('<b>x</b>', [{ start: 3, length: 1 }])).toEqual([
      { text: '<b>', marked: false },
      { text: 'x', marked: true },
      { text: '</b>', marked: false },
    ]);
  });

  it('joined is the snippet, and marks only whole, separate ranges inside it', () => {
    const range = fc.record({ start: fc.integer({ min: -5, max: 130 }), length: fc.integer({ min: -2, max: 40 }) });
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), fc.array(range, { maxLength: 12 }), (snippet, highlights) => {
        const pieces = snippetPieces(snippet, highlights);
        expect(pieces.map((piece) => piece.text).join('')).toBe(snippet);
        let at = 0;
        for (const piece of pieces) {
          expect(piece.text.length).toBeGreaterThan(0);
          if (piece.marked) expect(highlights.some((h) => h.start === at && h.length === piece.text.length)).toBe(true);
          at += piece.text.length;
        }
      }),
    );
  });

  it('has words for every place a search matches', () => {
    for (const words of Object.values(MATCHED_IN)) expect(words).toMatch(/^in /);
    expect(matchedIn('NOTE')).toBe('in a note');
  });
});
