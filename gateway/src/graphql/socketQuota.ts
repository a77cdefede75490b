/**
 * How many sockets a session or an API token has open, on every gateway of an installation (WS_LIMITS in
 * websockets.ts). The gateway's own socket groups (graphql/socketGroups.ts) always count too, synchronously, so the
 * limit holds per gateway without Redis (one process: SQLite) and whenever Redis cannot be reached.
 * With Redis, one sorted set per session or token holds a member `<gatewayId>:<n>` per open socket, scored with
 * the time it expires: a Lua script drops expired members, counts the rest and adds the new one only below the
 * limit, atomically, so two gateways admitting at the same moment cannot both take the last place. Each gateway
 * refreshes its members every `heartbeatMs`; the places of a gateway that was killed free up within `ttlMs`.
 * If Redis cannot be reached, the place is granted here and only the gateway's own count applies.
 *
 * Hand-written for the same reason as realtime/presence.ts: no library counts open connections across processes
 * with expiry of dead ones; rate limiters (rate-limiter-flexible) count events in a window, not what is open.
 */
import { createHash, randomBytes } from 'node:crypto';

export const SOCKET_QUOTA_TTL_MS = 30_000;
export const SOCKET_QUOTA_HEARTBEAT_MS = 10_000;

/** A socket's place in its group's count; released when the socket closes. */
export interface SocketPlace {
  release(): void;
}

export interface SocketQuota {
  /** A place for one more socket of `group` when fewer than `limit` are open on every gateway, else null. */
  acquire(group: string, limit: number): Promise<SocketPlace | null>;
  dispose(): Promise<void>;
}

interface RedisLike {
  eval(script: string, keys: number, ...args: (string | number)[]): Promise<unknown>;
  zrem(key: string, member: string): Promise<unknown>;
  pipeline(): { zadd(key: string, ...args: (string | number)[]): unknown; pexpire(key: string, ms: number): unknown; exec(): Promise<unknown> };
}

const ACQUIRE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1`;

const FREE: SocketPlace = { release: () => {} };

export interface SocketQuotaOptions {
  /** The gateway's Redis client (ioredis); none: count this gateway's sockets. */
  redis?: unknown;
  /** The installation's namespace (database identity), so installations sharing a Redis count apart. */
  namespace?: string;
  ttlMs?: number;
  heartbeatMs?: number;
  onError?: (error: unknown, where: string) => void;
}

export function createSocketQuota(options: SocketQuotaOptions = {}): SocketQuota {
  if (!options.redis) return { acquire: () => Promise.resolve(FREE), dispose: () => Promise.resolve() };
  const redis = options.redis as RedisLike;
  const ttlMs = options.ttlMs ?? SOCKET_QUOTA_TTL_MS;
  const onError = options.onError ?? (() => {});
  const prefix = `${options.namespace ? `fulcrum:${options.namespace}` : 'fulcrum'}:ws-sockets:`;
  const gatewayId = randomBytes(6).toString('hex');
  let serial = 0;
  // This gateway's places, by key: what the heartbeat refreshes.
  const held = new Map<string, Set<string>>();
  // Session ids are secrets: the key holds a hash of the group name, never the name.
  const keyOf = (group: string) => prefix + createHash('sha256').update(group).digest('hex').slice(0, 24);

  const heartbeat = setInterval(() => {
    if (held.size === 0) return;
    const expires = Date.now() + ttlMs;
    const pipeline = redis.pipeline();
    for (const [key, members] of held) {
      for (const member of members) pipeline.zadd(key, 'XX', expires, member);
      pipeline.pexpire(key, ttlMs);
    }
    pipeline.exec().catch((error: unknown) => onError(error, 'websocket quota: heartbeat'));
  }, options.heartbeatMs ?? SOCKET_QUOTA_HEARTBEAT_MS);
  heartbeat.unref();

  return {
    async acquire(group, limit) {
      const key = keyOf(group);
      const member = `${gatewayId}:${++serial}`;
      const now = Date.now();
      let admitted: unknown;
      try {
        admitted = await redis.eval(ACQUIRE, 1, key, now, now + ttlMs, member, limit, ttlMs);
      } catch (error) {
        onError(error, 'websocket quota: acquire');
        return FREE;
      }
      if (Number(admitted) !== 1) return null;
      let members = held.get(key);
      if (!members) held.set(key, (members = new Set()));
      members.add(member);
      return {
        release() {
          if (!members.delete(member)) return;
          if (members.size === 0 && held.get(key) === members) held.delete(key);
          redis.zrem(key, member).catch((error: unknown) => onError(error, 'websocket quota: release'));
        },
      };
    },
    async dispose() {
      clearInterval(heartbeat);
      const pending = [...held].flatMap(([key, members]) => [...members].map((member) => redis.zrem(key, member)));
      held.clear();
      await Promise.allSettled(pending);
    },
  };
}
