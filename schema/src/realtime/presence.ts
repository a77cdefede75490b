/**
 * Presence (which agents have at least one open socket, on any gateway) and the typing throttle. Nothing here is
 * stored in the database.
 *
 * - In one process (SQLite, no REDIS_URL) it is a map of socket counts per agent.
 * - With Redis, one sorted set per installation holds a member `<userId>:<gatewayId>` for every agent with a socket
 *   on that gateway, scored with the time it expires. Each gateway refreshes its members every `heartbeatMs` and
 *   sweeps expired ones (any gateway's), so the agents of a gateway that was killed go offline within
 *   `ttlMs + heartbeatMs` (30 s + 10 s by default; the issue asks for 60 s). A hash counts each agent's members and
 *   another holds a version per agent that grows with every change. All three change together in Lua scripts, so
 *   "came online" and "went offline" are decided atomically and the versions order them, whichever gateway's event
 *   reaches a client first.
 *
 * Hand-written because no library we know does per-user presence over Redis with expiry of dead processes; the
 * pieces are plain Redis commands.
 */
import { randomBytes } from 'node:crypto';
import type { EventBus, PresenceChange } from './events.js';

/** Typing signals per sender: at most one per this many milliseconds, across gateways. */
export const TYPING_THROTTLE_MS = 2_000;
export const PRESENCE_TTL_MS = 30_000;
/**
 * Presence changes leave a gateway in batches, at most one event per this many milliseconds: every signed-in tab
 * hears every change, so when many agents connect at once (a gateway restart) one event per change would cost
 * (agents x sockets) frames; a batch costs one frame per socket per window.
 */
export const PRESENCE_BATCH_MS = 1_000;
export const PRESENCE_HEARTBEAT_MS = 10_000;

export interface Presence {
  /** A socket of this agent opened on this gateway. */
  connect(userId: number): void;
  /** A socket of this agent closed on this gateway. */
  disconnect(userId: number): void;
  /** Agents with at least one open socket now, on any gateway. */
  onlineUserIds(): Promise<Set<number>>;
  /** True when a typing signal of this sender may go out now (at most one per TYPING_THROTTLE_MS). */
  allowTyping(senderId: number): Promise<boolean>;
  /** Waits for pending Redis updates, takes this gateway's agents offline and stops the heartbeat. */
  close(): Promise<void>;
}

export interface PresenceOptions {
  bus: EventBus;
  /** With Redis: the connection URL and the installation's channel prefix (events.channelPrefixFor). */
  redisUrl?: string;
  prefix?: string;
  ttlMs?: number;
  heartbeatMs?: number;
  onError?: (error: unknown, where: string) => void;
}

export async function createPresence(options: PresenceOptions): Promise<Presence> {
  return options.redisUrl ? redisPresence(options as PresenceOptions & { redisUrl: string }) : memoryPresence(options.bus);
}

/** Collects changes (the newest per agent) and publishes them together once per PRESENCE_BATCH_MS. */
function presenceBatcher(bus: EventBus) {
  let pending = new Map<number, PresenceChange>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (pending.size === 0) return;
    const changes = [...pending.values()];
    pending = new Map();
    bus.publish('presence', { changes });
  };
  return {
    add(change: PresenceChange) {
      const before = pending.get(change.userId);
      if (!before || before.version < change.version) pending.set(change.userId, change);
      timer ??= setTimeout(flush, PRESENCE_BATCH_MS);
    },
    flush,
  };
}

function memoryPresence(bus: EventBus): Presence {
  const sockets = new Map<number, number>();
  const versions = new Map<number, number>();
  const typedAt = new Map<number, number>();
  const batch = presenceBatcher(bus);
  const change = (userId: number, online: boolean) => {
    const version = (versions.get(userId) ?? 0) + 1;
    versions.set(userId, version);
    batch.add({ userId, online, version });
  };
  return {
    connect(userId) {
      const n = (sockets.get(userId) ?? 0) + 1;
      sockets.set(userId, n);
      if (n === 1) change(userId, true);
    },
    disconnect(userId) {
      const n = (sockets.get(userId) ?? 0) - 1;
      if (n > 0) return void sockets.set(userId, n);
      if (!sockets.delete(userId)) return;
      change(userId, false);
    },
    onlineUserIds: async () => new Set(sockets.keys()),
    async allowTyping(senderId) {
      const now = Date.now();
      if (now - (typedAt.get(senderId) ?? -Infinity) < TYPING_THROTTLE_MS) return false;
      typedAt.set(senderId, now);
      // Forget old entries now and then, so the map holds only recent typists.
      if (typedAt.size > 1000) for (const [id, at] of typedAt) if (now - at >= TYPING_THROTTLE_MS) typedAt.delete(id);
      return true;
    },
    close: async () => batch.flush(),
  };
}

// KEYS: the set, the counts, the versions. Each returns the changes it made as a flat list: userId, version, online (1/0).
const JOIN = `
local out = {}
local added = redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
if added == 1 and redis.call('HINCRBY', KEYS[2], ARGV[3], 1) == 1 then
  table.insert(out, tonumber(ARGV[3])); table.insert(out, redis.call('HINCRBY', KEYS[3], ARGV[3], 1)); table.insert(out, 1)
end
return out`;

const LEAVE = `
local out = {}
if redis.call('ZREM', KEYS[1], ARGV[1]) == 1 and redis.call('HINCRBY', KEYS[2], ARGV[2], -1) <= 0 then
  redis.call('HDEL', KEYS[2], ARGV[2])
  table.insert(out, tonumber(ARGV[2])); table.insert(out, redis.call('HINCRBY', KEYS[3], ARGV[2], 1)); table.insert(out, 0)
end
return out`;

// ARGV: now, new expiry, gateway id, then this gateway's agents. Sweeps what expired (any gateway), then
// refreshes this gateway's members (re-adding any that were swept while this gateway was stalled).
const HEARTBEAT = `
local out = {}
for _, member in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])) do
  if redis.call('ZREM', KEYS[1], member) == 1 then
    local user = string.match(member, '^(%d+):')
    if redis.call('HINCRBY', KEYS[2], user, -1) <= 0 then
      redis.call('HDEL', KEYS[2], user)
      table.insert(out, tonumber(user)); table.insert(out, redis.call('HINCRBY', KEYS[3], user, 1)); table.insert(out, 0)
    end
  end
end
for i = 4, #ARGV do
  local added = redis.call('ZADD', KEYS[1], ARGV[2], ARGV[i] .. ':' .. ARGV[3])
  if added == 1 and redis.call('HINCRBY', KEYS[2], ARGV[i], 1) == 1 then
    table.insert(out, tonumber(ARGV[i])); table.insert(out, redis.call('HINCRBY', KEYS[3], ARGV[i], 1)); table.insert(out, 1)
  end
end
return out`;

async function redisPresence(options: PresenceOptions & { redisUrl: string }): Promise<Presence> {
  const { Redis } = await import('ioredis');
  const ttlMs = options.ttlMs ?? PRESENCE_TTL_MS;
  const heartbeatMs = options.heartbeatMs ?? PRESENCE_HEARTBEAT_MS;
  const onError = options.onError ?? ((error: unknown, where: string) => console.error(`[fulcrum] ${where}:`, error));
  const prefix = options.prefix ?? 'fulcrum:';
  const keys = [`${prefix}presence`, `${prefix}presence:count`, `${prefix}presence:version`];
  const gatewayId = randomBytes(6).toString('hex');
  const redis = new Redis(options.redisUrl, { maxRetriesPerRequest: 3 });
  await redis.ping();
  const sockets = new Map<number, number>();
  const pending = new Set<Promise<unknown>>();
  const batch = presenceBatcher(options.bus);

  const publish = (flat: unknown) => {
    const list = (flat as (number | string)[]) ?? [];
    for (let i = 0; i + 2 < list.length; i += 3) {
      const change: PresenceChange = { userId: Number(list[i]), version: Number(list[i + 1]), online: Number(list[i + 2]) === 1 };
      batch.add(change);
    }
  };
  // Commands on one ioredis connection run in the order issued, so a quick connect-disconnect stays in order.
  const run = (script: string, args: (string | number)[], where: string) => {
    const done = redis.eval(script, keys.length, ...keys, ...args).then(publish, (error: unknown) => onError(error, where));
    pending.add(done);
    void done.finally(() => pending.delete(done));
  };
  const heartbeat = () => {
    const now = Date.now();
    run(HEARTBEAT, [now, now + ttlMs, gatewayId, ...sockets.keys()], 'presence heartbeat');
  };
  const timer = setInterval(heartbeat, heartbeatMs);
  timer.unref();

  const presence: Presence = {
    connect(userId) {
      const n = (sockets.get(userId) ?? 0) + 1;
      sockets.set(userId, n);
      if (n === 1) run(JOIN, [Date.now() + ttlMs, `${userId}:${gatewayId}`, userId], 'presence join');
    },
    disconnect(userId) {
      const n = (sockets.get(userId) ?? 0) - 1;
      if (n > 0) return void sockets.set(userId, n);
      if (!sockets.delete(userId)) return;
      run(LEAVE, [`${userId}:${gatewayId}`, userId], 'presence leave');
    },
    async onlineUserIds() {
      const members = await redis.zrangebyscore(keys[0], Date.now(), '+inf');
      return new Set(members.map((member) => Number(member.split(':')[0])));
    },
    async allowTyping(senderId) {
      try {
        return (await redis.set(`${prefix}typing:${senderId}`, '1', 'PX', TYPING_THROTTLE_MS, 'NX')) === 'OK';
      } catch (error) {
        onError(error, 'typing throttle');
        return false;
      }
    },
    async close() {
      clearInterval(timer);
      for (const userId of [...sockets.keys()]) {
        sockets.set(userId, 1);
        presence.disconnect(userId);
      }
      await Promise.allSettled([...pending]);
      batch.flush();
      redis.disconnect();
    },
  };
  return presence;
}
