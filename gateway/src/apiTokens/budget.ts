/**
 * Each API token's budget of cost points per minute (docs/integrators.md, "Limits"). rate-limiter-flexible keeps
 * the counters in memory, or in Redis when REDIS_URL is set, so every gateway draws on the same budget.
 */
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

/** Points a token may spend per minute, unless FULCRUM_TOKEN_BUDGET says otherwise. */
export const DEFAULT_TOKEN_BUDGET = 10_000;
export const BUDGET_WINDOW_SECONDS = 60;

export interface BudgetState {
  /** Points per window. */
  limit: number;
  /** Points left in the current window. */
  remaining: number;
  /** Seconds until the window starts again. */
  resetSeconds: number;
}

export interface BudgetDecision extends BudgetState {
  allowed: boolean;
}

export interface TokenBudget {
  readonly limit: number;
  /** Takes `points` from the token's budget when they fit; a refusal takes nothing. */
  spend(tokenId: number, points: number): Promise<BudgetDecision>;
  /** The budget as it stands, without spending. */
  peek(tokenId: number): Promise<BudgetState>;
}

export function createTokenBudget(pointsPerMinute: number, redis?: unknown, namespace?: string): TokenBudget {
  const keyPrefix = `${namespace ? `fulcrum:${namespace}` : 'fulcrum'}:token-budget`;
  const limiter: RateLimiterAbstract = redis
    ? new RateLimiterRedis({ storeClient: redis, keyPrefix, points: pointsPerMinute, duration: BUDGET_WINDOW_SECONDS, useRedisPackage: false })
    : new RateLimiterMemory({ keyPrefix, points: pointsPerMinute, duration: BUDGET_WINDOW_SECONDS });
  const state = (res: RateLimiterRes | null): BudgetState => ({
    limit: pointsPerMinute,
    remaining: Math.max(0, pointsPerMinute - (res?.consumedPoints ?? 0)),
    resetSeconds: res ? Math.max(1, Math.ceil(res.msBeforeNext / 1000)) : BUDGET_WINDOW_SECONDS,
  });
  return {
    limit: pointsPerMinute,
    async spend(tokenId, points) {
      const key = String(tokenId);
      try {
        return { allowed: true, ...state(await limiter.consume(key, points)) };
      } catch (error) {
        if (!(error instanceof RateLimiterRes)) throw error;
        // The refused points were counted by the atomic consume: give them back, so a refusal costs nothing.
        const after = await limiter.reward(key, points);
        return { allowed: false, ...state(after) };
      }
    },
    async peek(tokenId) {
      return state(await limiter.get(String(tokenId)));
    },
  };
}
