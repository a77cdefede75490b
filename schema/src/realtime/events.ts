/**
 * The live-event seam. Services publish after a commit; GraphQL subscriptions listen. In one process the bus is
 * in memory; with REDIS_URL it is Redis pub/sub (see createEventBus), so every gateway sees every event.
 * Topics are per agent (message:<userId>, ticket:<userId>, macro:<userId>), so an event reaches only the sockets
 * of agents allowed to see it; customers are a shared directory and go to everyone.
 */
import { createHash } from 'node:crypto';
import { createPubSub } from '@graphql-yoga/subscription';
import type { MessageRecord, TicketRecord, CustomerRecord, MacroRecord } from '../records/index.js';

export type ChangeKind = 'CREATED' | 'UPDATED' | 'DELETED';

export interface Change<T> {
  kind: ChangeKind;
  id: number;
  /** The record after the change; absent on DELETED. */
  record?: T;
}

export interface MessageChange extends Change<MessageRecord> {
  senderId: number;
  receiverId: number;
}

/** The fields a ticket list filters on; a ticket event carries them before and after the change (see TicketChange). */
export interface TicketFacets {
  status: TicketRecord['status'];
  priority: TicketRecord['priority'];
  type: TicketRecord['type'];
  requesterId: number;
}

/**
 * `previous`: the facets before an UPDATED or DELETED change, so a client can keep filtered lists and per-status
 * counts exact (it cannot know where a ticket it never loaded used to be counted).
 */
export interface TicketChange extends Change<TicketRecord> {
  previous?: TicketFacets;
}
/** A ticket's event record gained this seq (services/changeLog.ts); the timeline subscription reads the entry. */
export interface TimelineSignal {
  ticketId: number;
  seq: number;
}
/** Why an agent's unread counts changed. */
export type UnreadReason = 'MESSAGE_ARRIVED' | 'MESSAGE_DELETED' | 'READ';
export interface UnreadChange {
  partnerId: number;
  reason: UnreadReason;
}
/** `version` grows with every change of one agent's presence, so a client keeps the newest whatever order events arrive in. */
export interface PresenceChange {
  userId: number;
  online: boolean;
  version: number;
}
export interface TypingSignal {
  senderId: number;
  receiverId: number;
}

export type EventTopics = {
  message: [userId: number, payload: MessageChange];
  ticket: [userId: number, payload: TicketChange];
  /** A ticket of this agent's gained an event-record entry. */
  timeline: [userId: number, payload: TimelineSignal];
  /** The mail of a reply on a ticket of this agent's changed state (mail/sender.ts); the subscription re-reads it. */
  replyDelivery: [userId: number, payload: { ticketId: number; replyId: number }];
  macro: [userId: number, payload: Change<MacroRecord>];
  customer: [payload: Change<CustomerRecord>];
  /**
   * The agent's set of views may have changed (a view made, shared, unshared or deleted; a team joined or left; a
   * role changed): their view counts are read again (services/viewCounts.ts), which adds and removes views.
   */
  viewList: [userId: number, payload: { at: number }];
  /** Unread counts of this agent changed (services/conversations.ts); the subscription re-reads them. */
  unread: [userId: number, payload: UnreadChange];
  /** Agents came online or went offline (realtime/presence.ts), batched; everyone may see it. */
  presence: [payload: { changes: PresenceChange[] }];
  /** The sender is typing to this agent; never stored. */
  typing: [userId: number, payload: TypingSignal];
  /** A session ended (logout): every gateway closes that session's sockets. */
  sessionEnded: [payload: { sid: string }];
  /** An API token was revoked: every gateway closes that token's sockets. */
  apiTokenRevoked: [payload: { tokenId: number }];
};

export type EventBus = ReturnType<typeof createPubSub<EventTopics>>;

export interface EventBusOptions {
  /** redis://host:port switches the bus to Redis pub/sub. */
  redisUrl?: string;
  /**
   * Which installation the events belong to (see databaseIdentity): Redis channel names carry a hash of it, so
   * installations or test databases that share one Redis never see each other's events. Gateways on the same
   * database get the same namespace whatever URL they reach it by.
   */
  namespace?: string;
  /** Where publish failures go (Redis unreachable): logged, never thrown into the request that committed. */
  onError?: (error: unknown, where: string) => void;
}

export interface EventBusHandle {
  bus: EventBus;
  /** The Redis channel prefix in use ('' in memory). */
  channelPrefix: string;
  /**
   * Called when the bus comes back after losing Redis: events published meanwhile never arrived, so whoever
   * relies on them must catch up (the gateway closes its websockets; clients reconnect and refetch once).
   */
  onReconnected(listener: () => void): void;
  close(): Promise<void>;
}

/** The Redis connection name of a gateway's subscriber (per installation), so operators and tests find it in CLIENT LIST. */
export function subscriberConnectionName(channelPrefix: string): string {
  return `fulcrum-events-${channelPrefix.split(':')[1]}`;
}

/** `fulcrum:<12 hex of sha256(namespace)>:`; the hash keeps database names and URLs out of Redis. */
export function channelPrefixFor(namespace: string | undefined): string {
  return `fulcrum:${createHash('sha256')
    .update(namespace ?? 'default')
    .digest('hex')
    .slice(0, 12)}:`;
}

type Listener = (event: CustomEvent) => void;
type RedisClient = import('ioredis').Redis;

/**
 * The listeners of each topic, as a map of sets, and the EventTarget methods over it: the in-memory bus's target
 * and the Redis one's local fan-out. Hand-written rather than node's EventTarget, which warns
 * (MaxListenersExceededWarning) past 10 listeners of one topic, while one agent's sockets legitimately hold up to
 * MAX_SOCKETS_PER_SESSION × MAX_SUBSCRIPTIONS_PER_SOCKET of them (gateway/src/graphql/websockets.ts); the limits
 * there, not a warning, bound them.
 */
class TopicListeners {
  readonly #listeners = new Map<string, Set<Listener>>();
  readonly #registered = new WeakMap<object, Listener>();

  add(topic: string, listener: EventListenerOrEventListenerObject | null): void {
    if (!listener) return;
    const callback = this.#registered.get(listener) ?? (('handleEvent' in listener ? listener.handleEvent.bind(listener) : listener) as Listener);
    this.#registered.set(listener, callback);
    let callbacks = this.#listeners.get(topic);
    if (!callbacks) this.#listeners.set(topic, (callbacks = new Set()));
    callbacks.add(callback);
  }

  remove(topic: string, listener: EventListenerOrEventListenerObject | null): void {
    if (!listener) return;
    const callbacks = this.#listeners.get(topic);
    const callback = this.#registered.get(listener);
    if (!callbacks || !callback) return;
    callbacks.delete(callback);
    if (callbacks.size === 0) this.#listeners.delete(topic);
  }

  has(topic: string): boolean {
    return this.#listeners.has(topic);
  }

  /** Hands the same event object to every listener of its topic (websockets.ts shares results by that object). */
  dispatch(topic: string, detail: unknown): void {
    const callbacks = this.#listeners.get(topic);
    if (!callbacks) return;
    const event = new CustomEvent(topic, { detail });
    for (const callback of [...callbacks]) callback(event);
  }
}

/** The in-memory bus's EventTarget: one process, no copies. */
function memoryEventTarget(): EventTarget {
  const listeners = new TopicListeners();
  return {
    addEventListener: (topic: string, listener: EventListenerOrEventListenerObject | null) => listeners.add(topic, listener),
    removeEventListener: (topic: string, listener: EventListenerOrEventListenerObject | null) => listeners.remove(topic, listener),
    dispatchEvent(event: Event) {
      listeners.dispatch(event.type, (event as CustomEvent<unknown>).detail);
      return true;
    },
  };
}

/**
 * The EventTarget that createPubSub publishes to and listens on, over Redis pub/sub; it replaces
 * @graphql-yoga/redis-event-target. One PSUBSCRIBE to this installation's channels (`<prefix>*`), made before
 * the gateway listens, then a local fan-out by topic. So a graphql-ws `subscribe` is live the moment the gateway
 * has processed it (no per-topic SUBSCRIBE round trip during which an event could slip by: a reconnecting
 * client's "subscribe, then query" catch-up has no gap), and sockets connecting and leaving cost Redis nothing.
 * The price: every gateway receives every event of its installation and drops those without a local subscriber,
 * which is nothing at help-desk rates. Publish errors are reported, never thrown into the request that
 * committed. ioredis re-subscribes by itself after a reconnect.
 */
async function redisEventTarget(
  publishClient: RedisClient,
  subscribeClient: RedisClient,
  prefix: string,
  onError: (error: unknown, where: string) => void,
): Promise<EventTarget> {
  const listeners = new TopicListeners();
  const pattern = `${prefix}*`;
  subscribeClient.on('pmessage', (matched: string, channel: string, message: string) => {
    if (matched !== pattern) return;
    const topic = channel.slice(prefix.length);
    if (!listeners.has(topic)) return;
    let detail: unknown;
    try {
      detail = message === '' ? null : JSON.parse(message);
    } catch (error) {
      return onError(error, `event bus: unreadable message on ${topic}`);
    }
    listeners.dispatch(topic, detail);
  });
  await subscribeClient.psubscribe(pattern);
  return {
    addEventListener: (topic: string, listener: EventListenerOrEventListenerObject | null) => listeners.add(topic, listener),
    removeEventListener: (topic: string, listener: EventListenerOrEventListenerObject | null) => listeners.remove(topic, listener),
    dispatchEvent(event: Event) {
      const detail = (event as CustomEvent<unknown>).detail;
      publishClient
        .publish(prefix + event.type, detail === undefined ? '' : JSON.stringify(detail))
        .catch((error: unknown) => onError(error, `event bus: publish ${event.type}`));
      return true;
    },
  };
}

const defaultOnError = (error: unknown, where: string) => console.error(`[fulcrum] ${where}:`, error);

export async function createEventBus(options: EventBusOptions = {}): Promise<EventBusHandle> {
  if (!options.redisUrl) {
    return { bus: createPubSub<EventTopics>({ eventTarget: memoryEventTarget() }), channelPrefix: '', onReconnected: () => {}, close: async () => {} };
  }
  const { Redis } = await import('ioredis');
  const publishClient = new Redis(options.redisUrl, { maxRetriesPerRequest: 3 });
  const channelPrefix = channelPrefixFor(options.namespace);
  const subscribeClient = new Redis(options.redisUrl, { maxRetriesPerRequest: 3, connectionName: subscriberConnectionName(channelPrefix) });
  await Promise.all([publishClient.ping(), subscribeClient.ping()]);
  // 'ready' has fired once already; every later one is a reconnect (ioredis has re-issued the PSUBSCRIBE).
  const reconnectListeners: (() => void)[] = [];
  subscribeClient.on('ready', () => reconnectListeners.forEach((listener) => listener()));
  const eventTarget = await redisEventTarget(publishClient, subscribeClient, channelPrefix, options.onError ?? defaultOnError);
  return {
    bus: createPubSub<EventTopics>({ eventTarget }),
    channelPrefix,
    onReconnected: (listener) => void reconnectListeners.push(listener),
    close: () => {
      subscribeClient.disconnect();
      publishClient.disconnect();
      return Promise.resolve();
    },
  };
}

/** Dates cross Redis as strings; subscription resolvers revive them with this. */
export function reviveDates<T extends { createdAt?: unknown; updatedAt?: unknown }>(record: T): T {
  const out = { ...record };
  if (out.createdAt !== undefined && !(out.createdAt instanceof Date)) out.createdAt = new Date(out.createdAt as string);
  if (out.updatedAt !== undefined && !(out.updatedAt instanceof Date)) out.updatedAt = new Date(out.updatedAt as string);
  return out;
}
