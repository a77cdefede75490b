import { inspect } from 'node:util';
import WebSocket from 'ws';
import { createClient, type Client } from 'graphql-ws';

/** A graphql-ws client that sends a session cookie on the upgrade, as a browser would. */
export function wsClient(baseUrl: string, cookie: string, options: { origin?: string; lazy?: boolean; retryAttempts?: number } = {}): Client {
  const headers: Record<string, string> = { cookie };
  if (options.origin) headers.origin = options.origin;
  class CookieWebSocket extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { headers });
    }
  }
  return createClient({ url: baseUrl.replace(/^http/, 'ws') + '/graphql', webSocketImpl: CookieWebSocket, lazy: options.lazy ?? true, retryAttempts: options.retryAttempts ?? 0 });
}

/** Collects a subscription's events until told to stop. */
export function collect<T = Record<string, any>>(client: Client, query: string) {
  const events: T[] = [];
  const errors: unknown[] = [];
  let completed = false;
  const stop = client.subscribe<T>({ query }, {
    next: (value) => events.push(value.data as T),
    error: (error) => errors.push(error),
    complete: () => (completed = true),
  });
  return {
    events,
    errors,
    get completed() {
      return completed;
    },
    stop,
    /** Resolves once `count` events have arrived (or rejects after `timeoutMs`). */
    async waitFor(count: number, timeoutMs = 5000): Promise<T[]> {
      const start = Date.now();
      while (events.length < count) {
        if (errors.length) throw new Error(`subscription error: ${inspect(errors[0], { depth: 4 })}`);
        if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${count} events, got ${events.length}`);
        await new Promise((r) => setTimeout(r, 10));
      }
      return events;
    },
  };
}

/** Resolves when the client connects (or rejects with the close event). */
export function connected(client: Client): Promise<void> {
  return new Promise((resolve, reject) => {
    const offOk = client.on('connected', () => (offOk(), offClosed(), resolve()));
    const offClosed = client.on('closed', (event) => (offOk(), offClosed(), reject(event)));
  });
}

export const MESSAGE_EVENTS = 'subscription { messageEvents { kind id senderId receiverId message { id text } } }';
export const TICKET_EVENTS = 'subscription { ticketEvents { kind id ticket { id title } } }';
export const CUSTOMER_EVENTS = 'subscription { customerEvents { kind id customer { id name } } }';
export const MACRO_EVENTS = 'subscription { macroEvents { kind id macro { id name } } }';
