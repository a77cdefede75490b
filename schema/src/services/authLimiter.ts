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
  /** Answers on the requester page per link, and per client address, in an hour (not `windowSeconds`). */
  requesterAnswersPerLink?: number;
  requesterAnswersPerIp?: number;
  /** Bytes of files in those answers per link, and per client address, in an hour. */
  requesterBytesPerLink?: number;
  requesterBytesPerIp?: number;
  /** Bytes of files a ticket's requester messages may hold in all (the requester page refuses more). */
  requesterTicketBytes?: number;
}

const MB = 1024 * 1024;
/** The requester page's budgets (docs/security.md): 30 answers and 50 MB of files an hour, 200 MB per ticket. */
export const REQUESTER_ANSWER_WINDOW_SECONDS = 60 * 60;

export const DEFAULT_AUTH_LIMITS: AuthLimits = {
  loginFailuresPerAccount: 5,
  loginFailuresPerIp: 50,
  signupsPerIp: 20,
  tokenFailuresPerIp: 50,
  windowSeconds: 15 * 60,
  requesterAnswersPerLink: 30,
  requesterAnswersPerIp: 30,
  requesterBytesPerLink: 50 * MB,
  requesterBytesPerIp: 50 * MB,
  requesterTicketBytes: 200 * MB,
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
  /**
   * Takes one answer and its files' `bytes` from the requester page's hourly budgets of this link (`link`: a key of
   * the link, not its token) and this address, atomically; when any is spent, gives back what it took and throws
   * RATE_LIMITED (retryAfter: until the budget that refused has room again). Call before storing the answer.
   */
  consumeRequesterAnswer(link: string, ip: string, bytes: number): Promise<void>;
  /** Gives back what consumeRequesterAnswer took (the answer was not stored after all). */
  refundRequesterAnswer(link: string, ip: string, bytes: number): Promise<void>;
  /** The bytes of files a ticket's requester messages may hold in all. */
  readonly requesterTicketBytes: number;
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
  const hourly = (keyPrefix: string, points: number): RateLimiterAbstract =>
    redis
      ? new RateLimiterRedis({
          storeClient: redis,
          keyPrefix: `${prefix}:${keyPrefix}`,
          points,
          duration: REQUESTER_ANSWER_WINDOW_SECONDS,
          useRedisPackage: false,
        })
      : new RateLimiterMemory({ keyPrefix, points, duration: REQUESTER_ANSWER_WINDOW_SECONDS });
  const limit = (name: keyof AuthLimits) => limits[name] ?? DEFAULT_AUTH_LIMITS[name]!;
  const answersPerLink = hourly('requester-answers-link', limit('requesterAnswersPerLink'));
  const answersPerIp = hourly('requester-answers-ip', limit('requesterAnswersPerIp'));
  const bytesPerLink = hourly('requester-bytes-link', limit('requesterBytesPerLink'));
  const bytesPerIp = hourly('requester-bytes-ip', limit('requesterBytesPerIp'));
  // Each budget with the key it counts under and what an answer takes from it: answers and bytes, per link and address.
  const answerBudgets = (link: string, ip: string, bytes: number): [RateLimiterAbstract, string, number][] =>
    (
      [
        [answersPerLink, link, 1],
        [answersPerIp, ip, 1],
        [bytesPerLink, link, bytes],
        [bytesPerIp, ip, bytes],
      ] as [RateLimiterAbstract, string, number][]
    ).filter(([, , points]) => points > 0);
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
    async consumeRequesterAnswer(link, ip, bytes) {
      const taken: [RateLimiterAbstract, string, number][] = [];
      for (const budget of answerBudgets(link, ip, bytes)) {
        const [limiter, key, points] = budget;
        try {
          await limiter.consume(key, points);
          taken.push(budget);
        } catch (error) {
          if (!(error instanceof RateLimiterRes)) throw error;
          // The refused consume counted too: give everything back, so a refused answer costs nothing.
          await Promise.all([...taken, budget].map(([l, k, p]) => l.reward(k, p)));
          throw limited(error);
        }
      }
    },
    async refundRequesterAnswer(link, ip, bytes) {
      await Promise.all(answerBudgets(link, ip, bytes).map(([l, k, p]) => l.reward(k, p)));
    },
    requesterTicketBytes: limit('requesterTicketBytes'),
  };
}
