/**
 * Brute-force protection for login and signup, in the service layer so REST, GraphQL and aliased GraphQL
 * mutations all count against the same budget. rate-limiter-flexible keeps the counters in memory, or in
 * Redis when REDIS_URL is set so every gateway shares them.
 */
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppError } from '../errors.js';

export interface AuthLimits {
  /** Failed logins allowed per account and client address in `windowSeconds`. */
  loginFailuresPerAccount: number;
  /** Failed logins allowed per client address (any account) in `windowSeconds`. */
  loginFailuresPerIp: number;
  /** Signups allowed per client address in `windowSeconds`. */
  signupsPerIp: number;
  windowSeconds: number;
}

export const DEFAULT_AUTH_LIMITS: AuthLimits = {
  loginFailuresPerAccount: 5,
  loginFailuresPerIp: 50,
  signupsPerIp: 20,
  windowSeconds: 15 * 60,
};

export interface AuthLimiter {
  /** Throws RATE_LIMITED when this account or address has failed too often. */
  assertLoginAllowed(email: string, ip: string): Promise<void>;
  recordLoginFailure(email: string, ip: string): Promise<void>;
  recordLoginSuccess(email: string, ip: string): Promise<void>;
  /** Counts a signup attempt; throws RATE_LIMITED past the limit. */
  consumeSignup(ip: string): Promise<void>;
}

function limited(res: RateLimiterRes | null): AppError {
  const retryAfter = Math.max(1, Math.ceil((res?.msBeforeNext ?? 1000) / 1000));
  return new AppError('RATE_LIMITED', `Too many attempts. Try again in ${retryAfter} seconds.`, { retryAfter });
}

export function createAuthLimiter(limits: AuthLimits = DEFAULT_AUTH_LIMITS, redis?: unknown): AuthLimiter {
  const make = (keyPrefix: string, points: number): RateLimiterAbstract =>
    redis
      ? new RateLimiterRedis({ storeClient: redis, keyPrefix: `fulcrum:${keyPrefix}`, points, duration: limits.windowSeconds, useRedisPackage: false })
      : new RateLimiterMemory({ keyPrefix, points, duration: limits.windowSeconds });
  const perAccount = make('login-account', limits.loginFailuresPerAccount);
  const perIp = make('login-ip', limits.loginFailuresPerIp);
  const signups = make('signup-ip', limits.signupsPerIp);
  const accountKey = (email: string, ip: string) => `${email.toLowerCase()}|${ip}`;

  return {
    async assertLoginAllowed(email, ip) {
      const [account, address] = await Promise.all([perAccount.get(accountKey(email, ip)), perIp.get(ip)]);
      if (account && account.consumedPoints >= limits.loginFailuresPerAccount) throw limited(account);
      if (address && address.consumedPoints >= limits.loginFailuresPerIp) throw limited(address);
    },
    async recordLoginFailure(email, ip) {
      await Promise.all([
        perAccount.penalty(accountKey(email, ip), 1),
        perIp.penalty(ip, 1),
      ]);
    },
    async recordLoginSuccess(email, ip) {
      await perAccount.delete(accountKey(email, ip));
    },
    async consumeSignup(ip) {
      try {
        await signups.consume(ip, 1);
      } catch (error) {
        if (error instanceof RateLimiterRes) throw limited(error);
        throw error;
      }
    },
  };
}
