/**
 * API tokens' properties, each over random input through a real gateway: a one-character change to a secret fails
 * the offline checksum; createApiToken answers a token or a field error, never a 500, and a refusal writes nothing;
 * any Authorization header is a 401, or a 200 for the real token, and never reaches the session; secrets, their
 * hashes and bearer headers never survive into a log line. The shared gateway is tokenGateway.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { apiTokens } from '@fulcrum/schema';
import { redactSecrets } from '../../src/logging.js';
import { parseAuthorization } from '../../src/apiTokens/bearer.js';
import { createToken, CREATE_TOKEN } from './support.js';
import { closeTokenGateway, codeOf, demo, gw, openTokenGateway, rows } from './tokenGateway.js';

beforeAll(openTokenGateway);
afterAll(closeTokenGateway);

describe('properties', () => {
  it('any one-character change to a secret fails the offline checksum', () => {
    fc.assert(
      fc.property(fc.integer({ min: 12, max: 49 }), fc.constantFrom(...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'), (at, char) => {
        const secret = apiTokens.generateSecret();
        expect(apiTokens.isWellFormedSecret(secret)).toBe(true);
        const changed = secret.slice(0, at) + char + secret.slice(at + 1);
        expect(apiTokens.isWellFormedSecret(changed)).toBe(changed === secret);
      }),
      { numRuns: 2000 },
    );
  });

  it('createApiToken: any input is a token or a field error, never a 500, and a refusal writes nothing', async () => {
    const before = (await rows()).length;
    let created = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          name: fc.oneof(fc.string({ maxLength: 60 }), fc.constantFrom('', ' ', 'ok', '\u0000x', 'x'.repeat(50), 'x'.repeat(51))),
          scopes: fc.array(fc.oneof(fc.constantFrom('READ', 'WRITE', 'WEBHOOKS'), fc.string({ maxLength: 8 })), { maxLength: 3 }),
          expiresInDays: fc.option(fc.oneof(fc.integer({ min: -10, max: 400 }), fc.constantFrom(1, 366, 367, 0)), { nil: null }),
        }),
        async (input) => {
          const r = await demo.gql(CREATE_TOKEN, { input });
          expect(r.status).toBeLessThan(500);
          const ok =
            input.name.trim().length >= 1 &&
            input.name.trim().length <= 50 &&
            !input.name.includes('\u0000') &&
            input.scopes.length > 0 &&
            input.scopes.every((s) => s === 'READ' || s === 'WRITE' || s === 'WEBHOOKS') &&
            (input.expiresInDays === null || (input.expiresInDays >= 1 && input.expiresInDays <= 366));
          if (ok) {
            expect(r.data?.createApiToken.secret).toMatch(apiTokens.SECRET_PATTERN);
            // Each scope brings the ones it includes: WEBHOOKS ⊃ WRITE ⊃ READ.
            const widest = ['WEBHOOKS', 'WRITE', 'READ'].find((scope) => input.scopes.includes(scope))!;
            expect(r.data?.createApiToken.token.scopes).toEqual(['READ', 'WRITE', 'WEBHOOKS'].slice(0, ['READ', 'WRITE', 'WEBHOOKS'].indexOf(widest) + 1));
            created++;
          } else {
            expect(['BAD_USER_INPUT']).toContain(codeOf(r));
          }
        },
      ),
      { numRuns: 60 },
    );
    expect((await rows()).length).toBe(before + created);
  });

  it('Authorization: any header is a 401 or 200 for the real token, never a 500; nothing reaches the session', async () => {
    const { secret } = await createToken(demo);
    const headerChars = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 80 });
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          headerChars,
          headerChars.map((s) => `Bearer ${s}`),
          fc.constantFrom(
            `Bearer ${secret}`,
            `bearer   ${secret}`,
            `Bearer ${secret} `,
            `Bearer ${secret}x`,
            `Bearer  fulcrum_pat_`,
            'Bearer =',
            `Bearer ${secret.toUpperCase()}`,
          ),
        ),
        async (header) => {
          const parsed = parseAuthorization(header.trim() === '' ? header : header);
          let res: Response;
          try {
            res = await fetch(`${gw.url}/graphql`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', authorization: header },
              body: JSON.stringify({ query: '{ me { id } }' }),
            });
          } catch {
            return; // a header fetch itself refuses to send (e.g. leading or trailing whitespace rules): nothing to test
          }
          const body = await res.text();
          const valid = parsed.kind === 'bearer' && parsed.secret === secret;
          expect(res.status, header).toBe(valid ? 200 : 401);
          expect(body).not.toMatch(/stack|at \w+ \(|SQL|select /i);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('redaction: secrets, their hashes and bearer headers never survive into a log line', () => {
    const secret = apiTokens.generateSecret();
    const hash = apiTokens.hashSecret(secret);
    const error = new Error(`insert into "api_tokens" ("token_hash", "hint") values ('${hash}', 'abcd') - Authorization: Bearer ${secret} ${secret}`);
    const redacted = redactSecrets(error) as Error;
    for (const text of [
      redacted.message,
      redacted.stack ?? '',
      JSON.stringify(redactSecrets({ headers: { authorization: `Bearer ${secret}` } })),
      redactSecrets(`GET /graphql?token=${secret}`) as string,
    ]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(secret.slice(12));
      expect(text).not.toContain(hash);
    }
    expect(redacted.message).toContain('[redacted token hash]');
    expect(redacted.message).toContain('[redacted token]');
  });
});
