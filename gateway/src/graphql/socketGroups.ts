/**
 * The open websockets of this gateway, grouped by who opened them: by session id (cookie sockets) and by API-token
 * id (bearer sockets). One registry serves logout (`sessionEnded`), token revocation (`apiTokenRevoked`) and the
 * periodic sweeps that close the sockets of sessions and tokens that ended without an event reaching this gateway.
 *
 * Hand-written: a map of sets. Most groups hold one socket (one tab), so a group is stored as the socket itself
 * until a second one joins; with 1,000 sockets open that saves a Set per socket.
 */
import type { WebSocket } from 'ws';

export class SocketGroup<K> {
  readonly #groups = new Map<K, WebSocket | Set<WebSocket>>();

  add(key: K, socket: WebSocket): void {
    const group = this.#groups.get(key);
    if (group === undefined) this.#groups.set(key, socket);
    else if (group instanceof Set) group.add(socket);
    else if (group !== socket) this.#groups.set(key, new Set([group, socket]));
  }

  remove(key: K, socket: WebSocket): void {
    const group = this.#groups.get(key);
    if (group === socket) this.#groups.delete(key);
    else if (group instanceof Set) {
      group.delete(socket);
      if (group.size === 1) this.#groups.set(key, group.values().next().value!);
    }
  }

  /** Closes every socket of `key` with `code` and forgets the group. */
  close(key: K, code: number, reason: string): void {
    const group = this.#groups.get(key);
    this.#groups.delete(key);
    if (group === undefined) return;
    for (const socket of group instanceof Set ? [...group] : [group]) socket.close(code, reason);
  }

  /** How many sockets `key` has open on this gateway. */
  count(key: K): number {
    const group = this.#groups.get(key);
    return group === undefined ? 0 : group instanceof Set ? group.size : 1;
  }

  keys(): K[] {
    return [...this.#groups.keys()];
  }

  get size(): number {
    return this.#groups.size;
  }
}

/** The two groupings of a gateway's sockets. */
export interface SocketGroups {
  bySession: SocketGroup<string>;
  byToken: SocketGroup<number>;
}

export function createSocketGroups(): SocketGroups {
  return { bySession: new SocketGroup(), byToken: new SocketGroup() };
}
