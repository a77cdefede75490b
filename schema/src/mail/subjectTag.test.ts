import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { subjectTag } from './subjectTag.js';

const words = fc.string({ maxLength: 40 }).map((s) => s.replace(/\[#\d/g, '[# '));

describe('the subject tag', () => {
  it('is the last [#<digits>] of a subject, wherever it stands and whatever surrounds it', () => {
    fc.assert(
      fc.property(words, fc.array(fc.integer({ min: 1, max: 2_147_483_647 }), { minLength: 1, maxLength: 3 }), words, (before, ids, after) => {
        const subject = `${before}${ids.map((id) => `[#${id}]`).join(' x ')}${after}`;
        expect(subjectTag(subject)).toBe(ids[ids.length - 1]);
      }),
      { numRuns: 300 },
    );
  });

  it('names no ticket without a well-formed tag, for zero, or past the largest ticket id', () => {
    fc.assert(
      fc.property(words, (subject) => {
        expect(subjectTag(subject)).toBeNull();
      }),
      { numRuns: 300 },
    );
    for (const subject of ['Re: Help [#]', 'Re: [# 12]', 'Re: [#12', 'Re: #12', 'Re: [12]', 'Re: [#0]', 'Re: [#2147483648]', 'Re: [#9999999999999]'])
      expect(subjectTag(subject)).toBeNull();
    expect(subjectTag('Re: Help [#007]')).toBe(7);
    expect(subjectTag('Re: [#3] Help [#abc]')).toBe(3);
  });
});
