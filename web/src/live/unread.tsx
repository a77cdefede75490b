import { makeVar } from '@apollo/client';
import { useReactiveVar } from '@apollo/client/react';
import { useEffect } from 'react';

/**
 * Unread messages of this tab: messages to the signed-in agent that arrived live while the agent was not looking at
 * that conversation (elsewhere in the app, or in another conversation). Keyed by message id (value: sender id), so
 * a deleted message stops counting and opening a conversation clears exactly its messages.
 */
export const unreadVar = makeVar<ReadonlyMap<number, number>>(new Map());

/** Conversations on screen now (partner id -> how many message centers show it: the page and the modal may both). */
const viewing = new Map<number, number>();

export function isViewing(partnerId: number): boolean {
  return (viewing.get(partnerId) ?? 0) > 0;
}

/** A message to me arrived: it counts unless its conversation is on screen. */
export function noteIncoming(messageId: number, senderId: number): void {
  if (isViewing(senderId) || unreadVar().has(messageId)) return;
  unreadVar(new Map(unreadVar()).set(messageId, senderId));
}

export function forgetMessage(messageId: number): void {
  if (!unreadVar().has(messageId)) return;
  const next = new Map(unreadVar());
  next.delete(messageId);
  unreadVar(next);
}

export function clearConversation(partnerId: number): void {
  const current = unreadVar();
  if (![...current.values()].includes(partnerId)) return;
  unreadVar(new Map([...current].filter(([, senderId]) => senderId !== partnerId)));
}

/** Who sent the newest unread message (the conversation a message center opens on), if anyone. */
export function latestUnreadSender(): number | null {
  let sender: number | null = null;
  for (const senderId of unreadVar().values()) sender = senderId;
  return sender;
}

export function resetUnread(): void {
  if (unreadVar().size > 0) unreadVar(new Map());
}

/** The message center calls this for the open conversation: it is read now, and stays read while it is shown. */
export function useViewingConversation(partnerId: number | null): void {
  useEffect(() => {
    if (partnerId === null) return;
    viewing.set(partnerId, (viewing.get(partnerId) ?? 0) + 1);
    clearConversation(partnerId);
    return () => {
      const count = (viewing.get(partnerId) ?? 1) - 1;
      if (count > 0) viewing.set(partnerId, count);
      else viewing.delete(partnerId);
    };
  }, [partnerId]);
}

export function useUnreadCount(fromUserId?: number): number {
  const unread = useReactiveVar(unreadVar);
  if (fromUserId === undefined) return unread.size;
  let count = 0;
  for (const senderId of unread.values()) if (senderId === fromUserId) count += 1;
  return count;
}

/** The count on a message center opener (nav bar, profile menu) or a conversation; nothing when there is none. */
export function UnreadBadge({ fromUserId, className = '' }: { fromUserId?: number; className?: string }) {
  const count = useUnreadCount(fromUserId);
  if (count === 0) return null;
  return (
    <span className={`unread-badge ${className}`.trim()} data-unread={count}>
      {count > 99 ? '99+' : count}
      <span className="visually-hidden"> unread</span>
    </span>
  );
}
