/**
 * Brute-force protection for login and signup, in the service layer so REST, GraphQL and aliased GraphQL
 * mutations all count against the same budget. rate-limiter-flexible keeps the counters in memory, or in
 * Redis when REDIS_URL is set so every gateway shares them.
 *
 * A login attempt takes its point *before* the password is checked (an atomic consume), and a success gives it
 * back. Checking first and counting the failure after the (slow, argon2) verification would let 200 parallel
 * requests all pass the check before the first failure is counted.
 */
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppError } from '../errors.js';
import { tooManyAttemptsMessage } from '../validation/rules.js';

export interface AuthLimits {
  /** Login attempts that may fail per account and client address in `windowSeconds`. */
  loginFailuresPerAccount: number;
  /** Login attempts that may fail per client address (any account) in `windowSeconds`. */
  loginFailuresPerIp: number;
  /** Signups allowed per client address in `windowSeconds`. */
  signupsPerIp: number;
  /** API-token guesses (unknown, expired or revoked bearer secrets) per client address in `windowSeconds`. */
  tokenFailuresPerIp: number;
  windowSeconds: number;
}

export const DEFAULT_AUTH_LIMITS: AuthLimits = {
  loginFailuresPerAccount: 5,
  loginFailuresPerIp: 50,
  signupsPerIp: 20,
  tokenFailuresPerIp: 50,
  windowSeconds: 15 * 60,
};

export interface AuthLimiter {
  /**
   * Takes one attempt from this account+address and this address, atomically; throws RATE_LIMITED when either
   * budget is spent. Call before verifying the password.
   */
  consumeLoginAttempt(email: string, ip: string): Promise<void>;
  /** The attempt succeeded: the account+address counter is cleared and the address gets its point back. */
  recordLoginSuccess(email: string, ip: string): Promise<void>;
  /** Counts a signup attempt; throws RATE_LIMITED past the limit. */
  consumeSignup(ip: string): Promise<void>;
  /**
   * Throws RATE_LIMITED when this address has spent its budget of bad tokens, without counting anything (the
   * requester page checks before its lookup). A token lookup is one indexed read, not an argon2 verification, so
   * unlike logins only failures are counted.
   */
  checkTokenGuesses(ip: string): Promise<void>;
  /**
   * Counts a bad token; throws RATE_LIMITED (with retryAfter) past the limit. API tokens call only this, after
   * their lookup: a valid API token is never refused by the guess budget (services/apiTokens.ts).
   */
  recordTokenFailure(ip: string): Promise<void>;
}

function limited(res: RateLimiterRes | null): AppError {
  const retryAfter = Math.max(1, Math.ceil((res?.msBeforeNext ?? 1000) / 1000));
  return new AppError('RATE_LIMITED', tooManyAttemptsMessage(retryAfter), { retryAfter });
}

async function consume(limiter: RateLimiterAbstract, key: string): Promise<void> {
  try {
    await limiter.consume(key, 1);
  } catch (error) {
    if (error instanceof RateLimiterRes) throw limited(error);
    throw error;
  }
}

/**
 * `namespace` (the database identity) keeps the Redis counters of installations that share one Redis apart: each
 * installation's users and addresses have their own budget.
 */
export function createAuthLimiter(limits: AuthLimits = DEFAULT_AUTH_LIMITS, redis?: unknown, namespace?: string): AuthLimiter {
  const prefix = namespace ? `fulcrum:${namespace}` : 'fulcrum';
  const make = (keyPrefix: string, points: number): RateLimiterAbstract =>
    redis
      ? new RateLimiterRedis({ storeClient: redis, keyPrefix: `${prefix}:${keyPrefix}`, points, duration: limits.windowSeconds, useRedisPackage: false })
      : new RateLimiterMemory({ keyPrefix, points, duration: limits.windowSeconds });
  const perAccount = make('login-account', limits.loginFailuresPerAccount);
  const perIp = make('login-ip', limits.loginFailuresPerIp);
  const signups = make('signup-ip', limits.signupsPerIp);
  const tokenGuesses = make('token-ip', limits.tokenFailuresPerIp ?? DEFAULT_AUTH_LIMITS.tokenFailuresPerIp);
  const accountKey = (email: string, ip: string) => `${email.toLowerCase()}|${ip}`;

  return {
    async consumeLoginAttempt(email, ip) {
      // The address first: a spent address budget must not also burn the account's points.
      await consume(perIp, ip);
      await consume(perAccount, accountKey(email, ip));
    },
    async recordLoginSuccess(email, ip) {
      await Promise.all([perAccount.delete(accountKey(email, ip)), perIp.reward(ip, 1)]);
    },
    async consumeSignup(ip) {
      await consume(signups, ip);
    },
    async checkTokenGuesses(ip) {
      const spent = await tokenGuesses.get(ip);
      if (spent && spent.consumedPoints >= tokenGuesses.points) throw limited(spent);
    },
    async recordTokenFailure(ip) {
      await consume(tokenGuesses, ip);
    },
  };
}
