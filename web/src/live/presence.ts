import type { ApolloCache } from '@apollo/client';
import { makeVar } from '@apollo/client';
import { useReactiveVar } from '@apollo/client/react';
import { useEffect, useState } from 'react';
import { graphql } from '../gql';

/**
 * Presence and typing. Presence events set `User:{id}.online` in the cache, newest version wins (events
 * from different gateways may arrive out of order); the picker reads `online` with its users. Typing signals are
 * kept for a few seconds in a reactive var, never stored anywhere else.
 */
export const PRESENCE_EVENTS = graphql(`
  subscription LivePresenceEvents {
    presenceEvents {
      changes {
        userId
        online
        version
      }
    }
  }
`);

export const TYPING_EVENTS = graphql(`
  subscription LiveTypingEvents {
    typingEvents {
      senderId
    }
  }
`);

const versions = new Map<number, number>();

export function resetPresence(): void {
  versions.clear();
  typingVar(new Map());
}

export function applyPresenceEvent(cache: ApolloCache, event: { changes: readonly { userId: number; online: boolean; version: number }[] }): void {
  for (const change of event.changes) {
    if ((versions.get(change.userId) ?? 0) >= change.version) continue;
    versions.set(change.userId, change.version);
    const id = cache.identify({ __typename: 'User', id: change.userId });
    if (id) cache.modify({ id, fields: { online: () => change.online } });
  }
}

/** How long "X is typing…" shows after a signal (senders signal at most every 2 s while they type). */
export const TYPING_SHOWN_MS = 3_500;
/** A sender signals at most this often (the server drops more anyway). */
export const TYPING_SIGNAL_EVERY_MS = 2_000;

/** sender id -> until when their "typing…" shows. */
const typingVar = makeVar<ReadonlyMap<number, number>>(new Map());

export function noteTyping(senderId: number): void {
  typingVar(new Map(typingVar()).set(senderId, Date.now() + TYPING_SHOWN_MS));
}

/** Their message arrived: they are no longer typing it. */
export function clearTyping(senderId: number): void {
  if (!typingVar().has(senderId)) return;
  const next = new Map(typingVar());
  next.delete(senderId);
  typingVar(next);
}

/** True while `senderId` is typing to the signed-in agent. */
export function useIsTyping(senderId: number | null): boolean {
  const typing = useReactiveVar(typingVar);
  const until = senderId === null ? undefined : typing.get(senderId);
  // Re-render when the signal runs out.
  const [, setExpired] = useState(0);
  useEffect(() => {
    if (until === undefined) return;
    const timer = setTimeout(() => setExpired((n) => n + 1), Math.max(0, until - Date.now()) + 10);
    return () => clearTimeout(timer);
  }, [until]);
  // eslint-disable-next-line react-hooks/purity -- the answer depends on the clock by design; the effect above re-renders when it changes
  return until !== undefined && until > Date.now();
}
