import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newThreadToken, parseThreadRoot, threadRootId, tokenMatches } from './threadRoot.js';

describe('thread roots', () => {
  it('a root names its ticket and token under our host only; any other id is none of ours', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 40 }), (ticketId) => {
        const token = newThreadToken();
        expect(token).toMatch(/^[0-9a-f]{32}$/);
        const root = threadRootId(ticketId, token, 'help.example.com');
        expect(parseThreadRoot(root, 'HELP.example.com')).toEqual({ ticketId, token });
        expect(parseThreadRoot(root, 'evil.test')).toBeNull();
        expect(tokenMatches(token, token)).toBe(true);
        expect(tokenMatches(newThreadToken(), token)).toBe(false);
      }),
      { numRuns: 200 },
    );
    expect(threadRootId(12, null, 'h.test')).toBe('<ticket-12@h.test>');
    expect(parseThreadRoot('<ticket-12@h.test>', 'h.test')).toEqual({ ticketId: 12, token: null });
    expect(parseThreadRoot(`<ticket-12.${'a'.repeat(31)}@h.test>`, 'h.test')).toBeNull();
    expect(tokenMatches('a'.repeat(32), null)).toBe(false);
  });

  it('tokens are drawn at random: no two of many are equal', () => {
    const tokens = new Set(Array.from({ length: 2000 }, newThreadToken));
    expect(tokens.size).toBe(2000);
  });
});
