/** redactSecrets: a secret in a logged URL is redacted however the client percent-encoded it. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { apiTokens } from '@fulcrum/schema';
import { redactSecrets } from './logging.js';

/** Percent-encodes the chosen characters of `text` (hex in either case), the way a client may send a URL. */
const encodeSome = (text: string, which: boolean[], upper: boolean) =>
  [...text]
    .map((c, i) => {
      if (!which[i % which.length]) return c;
      const hex = c.charCodeAt(0).toString(16).padStart(2, '0');
      return `%${upper ? hex.toUpperCase() : hex}`;
    })
    .join('');

describe('redactSecrets', () => {
  it('a percent-encoded token or token hash in a URL (any characters, once or twice encoded) is redacted', () => {
    fc.assert(
      fc.property(
        fc.array(fc.boolean(), { minLength: 1, maxLength: 60 }),
        fc.boolean(),
        fc.boolean(),
        fc.constantFrom('token', 'hash', 'whsec'),
        (which, upper, twice, kind) => {
          const secret = apiTokens.generateSecret();
          const value = kind === 'token' ? secret : kind === 'hash' ? apiTokens.hashSecret(secret) : `whsec_${secret.slice(12)}`;
          let encoded = encodeSome(value, which, upper);
          if (twice) encoded = encoded.replace(/%/g, '%25');
          const line = redactSecrets(`POST /graphql?token=${encoded}&x=1%2`) as string;
          const error = redactSecrets(new Error(`GET /images/1?t=${encoded}`)) as Error;
          for (const text of [line, error.message, error.stack ?? '']) {
            expect(text).not.toContain(encoded);
            expect(text).not.toContain(value.slice(-20));
            expect(text).toMatch(/\[redacted (token|token hash|webhook secret)\]/);
          }
          // The rest of the line survives (a malformed escape included).
          expect(line).toMatch(/^POST \/graphql\?token=\[redacted [a-z ]+\]&x=1%2$/);
        },
      ),
      { numRuns: 300 },
    );
  });
});
