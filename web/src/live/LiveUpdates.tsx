import type { ApolloClient, TypedDocumentNode } from '@apollo/client';
import { useApolloClient, useReactiveVar } from '@apollo/client/react';
import { useEffect } from 'react';
import type { RootQuery } from '../gql/graphql';
import { liveStatusVar, openLive } from './connection';
import {
  applyCustomerEvent,
  applyMacroEvent,
  applyMessageEvent,
  applyTicketEvent,
  CUSTOMER_EVENTS,
  MACRO_EVENTS,
  MESSAGE_EVENTS,
  TICKET_EVENTS,
} from './events';
import { beginSessionSwitch } from './session';
import { applyPresenceEvent, noteTyping, PRESENCE_EVENTS, resetPresence, TYPING_EVENTS } from './presence';
import { applyUnreadEvent, UNREAD_EVENTS } from './unread';
import { applyViewCounts, refetchViewList, VIEW_COUNT_EVENTS } from './viewCounts';
import './live.css';

/** After a reconnect: wait this long (more reconnects in the meantime fold into it), then refetch once. */
export const CATCH_UP_DELAY_MS = 250;
/** A lost session is checked at most this often (a server that keeps refusing must not cause a refetch loop). */
const SESSION_CHECK_SPACING_MS = 10_000;

let lastSessionCheck = -Infinity;

/**
 * The live workspace: mounted by the shell for a signed-in agent (one per session; remounted when the agent
 * changes). Opens the socket, subscribes to the event streams (lists, unread counts, presence, typing), applies every event to the Apollo cache and
 * shows "Reconnecting…" while the socket is down. The one other subscriber is a ticket page's timeline, for as long
 * as it is open (tickets/timeline/TicketTimeline.tsx).
 */
// The signed-in user as the shell's root query returns it (app/session.tsx's SessionUser; live/ sits below app/).
export function LiveUpdates({ me }: { me: NonNullable<RootQuery['me']> }) {
  const client = useApolloClient();

  // Presence versions and typing signals belong to the agent's session.
  useEffect(() => resetPresence, [me.id]);

  useEffect(() => {
    let catchUp: ReturnType<typeof setTimeout> | undefined;
    let sessionCheck: ReturnType<typeof setTimeout> | undefined;
    const close = openLive({
      onReconnected() {
        // Events sent while the socket was down are lost: fetch the screens on show again, once.
        clearTimeout(catchUp);
        catchUp = setTimeout(() => {
          client.refetchQueries({ include: 'active' }).catch((error: unknown) => console.warn('catch-up refetch', error));
        }, CATCH_UP_DELAY_MS);
      },
      onSessionLost() {
        // Logged out elsewhere (another tab shares the cookie) or the session expired: find out who is signed in
        // now, the way a login or logout in this tab does. Signed in still (or again): the shell reconnects.
        const wait = Math.max(0, lastSessionCheck + SESSION_CHECK_SPACING_MS - Date.now());
        sessionCheck = setTimeout(() => {
          lastSessionCheck = Date.now();
          const end = beginSessionSwitch();
          client
            .resetStore()
            .catch((error: unknown) => {
              if ((error as Error)?.name !== 'AbortError') console.warn('resetStore', error);
            })
            .finally(end);
        }, wait);
      },
    });
    const subscriptions = [
      follow(client, MESSAGE_EVENTS, (data) => applyMessageEvent(client.cache, data.messageEvents, me.id)),
      follow(client, TICKET_EVENTS, (data) => applyTicketEvent(client.cache, data.ticketEvents, me.id)),
      follow(client, CUSTOMER_EVENTS, (data) => applyCustomerEvent(client.cache, data.customerEvents)),
      follow(client, MACRO_EVENTS, (data) => applyMacroEvent(client.cache, data.macroEvents)),
      follow(client, UNREAD_EVENTS, (data) => applyUnreadEvent(client.cache, data.unreadCountEvents)),
      follow(client, PRESENCE_EVENTS, (data) => applyPresenceEvent(client.cache, data.presenceEvents)),
      follow(client, TYPING_EVENTS, (data) => noteTyping(data.typingEvents.senderId)),
      follow(client, VIEW_COUNT_EVENTS, (data) => {
        if (applyViewCounts(client.cache, data.viewCountEvents)) refetchViewList(client);
      }),
    ];
    return () => {
      clearTimeout(catchUp);
      clearTimeout(sessionCheck);
      // Closing first: the socket closes once, normally, and the subscriptions complete with it.
      close();
      for (const subscription of subscriptions) subscription.unsubscribe();
    };
  }, [client, me.id]);

  return <LiveStatusIndicator />;
}

/** A subscription without variables whose data is applied to the cache. */
function follow<TData>(client: ApolloClient, query: TypedDocumentNode<TData, { [key: string]: never }>, apply: (data: TData) => void) {
  return client.subscribe({ query }).subscribe({
    next({ data, error }) {
      // A socket closed for a lost session fails every subscription: that is handled once, in onSessionLost.
      if (error) {
        if (liveStatusVar() !== 'offline') console.warn('live event', error);
        return;
      }
      if (!data) return;
      // One event that cannot be applied must not end the subscription (the next refetch repairs the screen).
      try {
        apply(data);
      } catch (failure) {
        console.error('live event not applied', failure);
      }
    },
  });
}

/** A small "Reconnecting…" pill while the socket is down; the region is always there so the change is announced. */
export function LiveStatusIndicator() {
  const status = useReactiveVar(liveStatusVar);
  return (
    <div className="live-status" role="status" data-live={status}>
      {status === 'reconnecting' && (
        <>
          <span className="live-status-dot" aria-hidden="true" />
          Reconnecting…
        </>
      )}
    </div>
  );
}
