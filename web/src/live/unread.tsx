import type { ApolloCache } from '@apollo/client';
import { useFragment, useQuery } from '@apollo/client/react';
import { graphql } from '../gql';
import './live.css';

/**
 * Unread messages are counted by the server: `unreadMessageCount` for the openers' badge, each
 * conversation's `unreadCount` for the picker. Both live in the Apollo cache; the `unreadCountEvents` subscription
 * writes the new counts there whenever they change anywhere (a message arrives, an unread one is deleted, or the
 * agent reads on another tab or device), and a reload or a reconnect's catch-up simply asks again.
 */
export const UNREAD_COUNT = graphql(`
  query UnreadCount {
    unreadMessageCount
  }
`);

export const ConversationUnread_conversation = graphql(`
  fragment ConversationUnread_conversation on Conversation {
    partnerId
    unreadCount
    lastReadMessageId
  }
`);

export const UNREAD_EVENTS = graphql(`
  subscription LiveUnreadCountEvents {
    unreadCountEvents {
      reason
      unreadMessageCount
      conversation {
        partnerId
        ...ConversationUnread_conversation
      }
    }
  }
`);

/** The event's conversation is normalized by Apollo already (Conversation:{partnerId}); the total goes to the query. */
export function applyUnreadEvent(cache: ApolloCache, event: { unreadMessageCount: number }): void {
  cache.writeQuery({ query: UNREAD_COUNT, data: { unreadMessageCount: event.unreadMessageCount } });
}

/** All unread messages of the signed-in agent (signed-in screens only). */
export function useUnreadCount(): number {
  const { data } = useQuery(UNREAD_COUNT, { fetchPolicy: 'cache-first' });
  return data?.unreadMessageCount ?? 0;
}

/** One conversation's read state from the cache (nothing yet: 0 unread). */
export function useConversationUnread(partnerId: number | null) {
  const { data, complete } = useFragment({
    fragment: ConversationUnread_conversation,
    from: { __typename: 'Conversation', partnerId: partnerId ?? 0 },
  });
  return complete && partnerId !== null ? data : { partnerId: partnerId ?? 0, unreadCount: 0, lastReadMessageId: 0 };
}

/** The count on a message center opener (nav bar, profile menu); nothing when there is none. */
export function UnreadBadge({ className = '' }: { className?: string }) {
  return <CountBadge count={useUnreadCount()} className={className} />;
}

/** A conversation's count in the picker. */
export function ConversationUnreadBadge({ partnerId }: { partnerId: number }) {
  return <CountBadge count={useConversationUnread(partnerId).unreadCount} />;
}

function CountBadge({ count, className = '' }: { count: number; className?: string }) {
  if (count <= 0) return null;
  return (
    <span className={`unread-badge ${className}`.trim()} data-unread={count}>
      {count > 99 ? '99+' : count}
      <span className="visually-hidden"> unread</span>
    </span>
  );
}
