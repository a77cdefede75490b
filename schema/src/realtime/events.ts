/**
 * The live-event seam. Services publish after a commit; GraphQL subscriptions listen. In one process the bus is
 * in memory; with REDIS_URL it is Redis pub/sub (see createEventBus), so every gateway sees every event.
 * Topics are per agent (message:<userId>, ticket:<userId>, macro:<userId>), so an event reaches only the sockets
 * of agents allowed to see it; customers are a shared directory and go to everyone.
 */
import { createPubSub } from '@graphql-yoga/subscription';
import type { MessageRecord, TicketRecord, CustomerRecord, MacroRecord } from '../services/records.js';

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

export type EventTopics = {
  message: [userId: number, payload: MessageChange];
  ticket: [userId: number, payload: Change<TicketRecord>];
  macro: [userId: number, payload: Change<MacroRecord>];
  customer: [payload: Change<CustomerRecord>];
  /** A session ended (logout): every gateway closes that session's sockets. */
  sessionEnded: [payload: { sid: string }];
};

export type EventBus = ReturnType<typeof createPubSub<EventTopics>>;

export interface EventBusOptions {
  /** redis://host:port switches the bus to Redis pub/sub. */
  redisUrl?: string;
}

export interface EventBusHandle {
  bus: EventBus;
  close(): Promise<void>;
}

export async function createEventBus(options: EventBusOptions = {}): Promise<EventBusHandle> {
  if (!options.redisUrl) {
    return { bus: createPubSub<EventTopics>(), close: async () => {} };
  }
  const [{ Redis }, { createRedisEventTarget }] = await Promise.all([import('ioredis'), import('@graphql-yoga/redis-event-target')]);
  const publishClient = new Redis(options.redisUrl, { maxRetriesPerRequest: 3 });
  const subscribeClient = new Redis(options.redisUrl, { maxRetriesPerRequest: 3 });
  await Promise.all([publishClient.ping(), subscribeClient.ping()]);
  const eventTarget = createRedisEventTarget({ publishClient, subscribeClient });
  return {
    bus: createPubSub<EventTopics>({ eventTarget }),
    close: async () => {
      subscribeClient.disconnect();
      publishClient.disconnect();
    },
  };
}

/** Dates cross Redis as strings; subscription resolvers revive them with this. */
export function reviveDates<T extends { createdAt?: unknown; updatedAt?: unknown }>(record: T): T {
  const out = { ...record };
  if (out.createdAt !== undefined && !(out.createdAt instanceof Date)) out.createdAt = new Date(out.createdAt as string) as T['createdAt'];
  if (out.updatedAt !== undefined && !(out.updatedAt instanceof Date)) out.updatedAt = new Date(out.updatedAt as string) as T['updatedAt'];
  return out;
}
