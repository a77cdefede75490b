/**
 * API tokens (docs/integrators.md): names, scopes, lifetimes and their messages, shared by the service and the web app.
 */
import { MESSAGES } from './core.js';
import { collect, lengthBetween, type FieldErrors } from './checks.js';

/** READ ⊂ WRITE ⊂ WEBHOOKS: each scope includes the ones before it (services/apiTokens.ts). */
export const API_SCOPES = ['READ', 'WRITE', 'WEBHOOKS'] as const;
export type ApiScopeName = (typeof API_SCOPES)[number];
export const API_TOKEN_LIMITS = { name: { min: 1, max: 50 }, expiresInDays: { min: 1, max: 366, default: 90 } } as const;
export const API_TOKEN_MESSAGES = {
  name: 'Name must be between 1 and 50 characters.',
  scopes: 'Choose at least one scope: READ, WRITE (which includes READ) or WEBHOOKS (which includes WRITE).',
  expiresInDays: 'Expiry must be a whole number of days from 1 to 366.',
  /** A token may not mint tokens, outlive its revocation or sign in and out (services/apiTokens.ts). */
  sessionOnly: 'API tokens cannot manage tokens or sign in and out: use the web app, signed in.',
  readScope: 'This API token has the READ scope only: mutations need a token with the WRITE scope.',
  /** One answer for unknown, malformed, expired and revoked tokens alike. */
  invalid: 'The API token is invalid, expired or revoked.',
} as const;

export interface ApiTokenFields {
  name: unknown;
  scopes: unknown;
  expiresInDays?: unknown;
}
export function validateApiToken(input: ApiTokenFields): FieldErrors {
  const days = input.expiresInDays;
  return collect([
    [
      'name',
      lengthBetween(typeof input.name === 'string' ? input.name.trim() : input.name, API_TOKEN_LIMITS.name.min, API_TOKEN_LIMITS.name.max),
      API_TOKEN_MESSAGES.name,
    ],
    [
      'scopes',
      Array.isArray(input.scopes) && input.scopes.length > 0 && input.scopes.every((s) => (API_SCOPES as readonly unknown[]).includes(s)),
      API_TOKEN_MESSAGES.scopes,
    ],
    [
      'expiresInDays',
      days === undefined ||
        days === null ||
        (Number.isInteger(days) && (days as number) >= API_TOKEN_LIMITS.expiresInDays.min && (days as number) <= API_TOKEN_LIMITS.expiresInDays.max),
      API_TOKEN_MESSAGES.expiresInDays,
    ],
  ]);
}

/** The page size of a list (`first`), refused outside these bounds; published in docs/integrators.md. */
export const PAGE_SIZE_MESSAGE = MESSAGES.pageSize;
