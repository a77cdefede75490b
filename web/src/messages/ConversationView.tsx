import { useMutation, useQuery } from '@apollo/client/react';
import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { describeError } from '../apollo/errors';
import { addMessageToLists, removeMessage } from '../apollo/cachedLists';
import { graphql } from '../gql';
import { TYPING_SIGNAL_EVERY_MS, useIsTyping } from '../live/presence';
import { useConversationUnread } from '../live/unread';
import { useSignedInUser } from '../app/session';
import { MessageCard, type MessageCardMode } from './MessageCard';
import './messages.css';

/** The newest 50 messages of one conversation; older pages are fetched with `after` as the agent scrolls up. */
export const CONVERSATION_MESSAGES = graphql(`
  query ConversationMessages($withUserId: Int!, $after: String) {
    messages(withUserId: $withUserId, first: 50, after: $after) {
      totalCount
      nodes {
        id
        senderId
        receiverId
        ...MessageCard_message
      }
      pageInfo {
        endCursor
        hasNextPage
      }
    }
  }
`);

const SEND_MESSAGE = graphql(`
  mutation SendMessage($receiverId: Int!, $text: String!) {
    sendMessage(receiverId: $receiverId, text: $text) {
      id
      senderId
      receiverId
      ...MessageCard_message
    }
  }
`);

const EDIT_MESSAGE = graphql(`
  mutation EditMessage($id: Int!, $text: String!) {
    editMessage(id: $id, text: $text) {
      id
      ...MessageCard_message
    }
  }
`);

const DELETE_MESSAGE = graphql(`
  mutation DeleteMessage($id: Int!) {
    deleteMessage(id: $id)
  }
`);

const MARK_READ = graphql(`
  mutation MarkConversationRead($partnerId: Int!, $upToMessageId: Int) {
    markConversationRead(partnerId: $partnerId, upToMessageId: $upToMessageId) {
      partnerId
      ...ConversationUnread_conversation
    }
  }
`);

const NOTIFY_TYPING = graphql(`
  mutation NotifyTyping($partnerId: Int!) {
    notifyTyping(partnerId: $partnerId)
  }
`);

type Pending = { kind: 'editing' | 'confirming'; id: number } | null;

/** Loading an older page starts when the list is scrolled this close to its top. */
const LOAD_OLDER_WITHIN_PX = 80;

/** Whether the page is visible: a conversation is marked read only while someone can see it. */
function usePageVisible(): boolean {
  const [visible, setVisible] = useState(() => document.visibilityState === 'visible');
  useEffect(() => {
    const update = () => setVisible(document.visibilityState === 'visible');
    document.addEventListener('visibilitychange', update);
    return () => document.removeEventListener('visibilitychange', update);
  }, []);
  return visible;
}

/**
 * One conversation: its messages (newest 50, older pages on scrolling up, the scroll position kept), marking it
 * read while it is on a visible page, "… is typing…", and the composer (which tells the partner we are typing).
 */
export function ConversationView({ partner }: { partner: { id: number; username: string } }) {
  const me = useSignedInUser();
  const { data, fetchMore } = useQuery(CONVERSATION_MESSAGES, { variables: { withUserId: partner.id } });
  const [draft, setDraft] = useState('');
  const [sendError, setSendError] = useState<string | null>(null);
  const [pending, setPending] = useState<Pending>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const listRef = useRef<HTMLOListElement>(null);
  const nearBottom = useRef(true);
  const anchor = useRef<{ height: number; top: number } | null>(null);
  const lastTypingSignal = useRef(0);
  const composeId = useId();
  const visible = usePageVisible();
  const readState = useConversationUnread(partner.id);
  const typing = useIsTyping(partner.id);

  // The same helpers apply live events (web/src/live/): whichever arrives second changes nothing.
  const [sendMessage, { loading: sending }] = useMutation(SEND_MESSAGE, {
    update(cache, { data: result }) {
      if (result) addMessageToLists(cache, result.sendMessage);
    },
  });
  const [editMessage] = useMutation(EDIT_MESSAGE);
  const [deleteMessage] = useMutation(DELETE_MESSAGE, {
    update(cache, { data: result }) {
      if (result) removeMessage(cache, result.deleteMessage);
    },
  });
  const [markRead] = useMutation(MARK_READ);
  const [notifyTyping] = useMutation(NOTIFY_TYPING);

  const page = data?.messages;
  const nodes = page?.nodes ?? [];
  const newestId = nodes[0]?.id ?? 0;
  const oldestId = nodes[nodes.length - 1]?.id ?? 0;
  const newestMine = nodes[0]?.senderId === me.id;

  // Read what is on screen, while the page is visible: up to the newest message shown. Other tabs and devices
  // hear of it from the server (unreadCountEvents), this one too.
  useEffect(() => {
    if (!visible || !page || readState.unreadCount <= 0 || newestId <= readState.lastReadMessageId) return;
    markRead({ variables: { partnerId: partner.id, upToMessageId: newestId } }).catch((error: unknown) => console.warn('mark read', error));
  }, [visible, page, readState.unreadCount, readState.lastReadMessageId, newestId, partner.id, markRead]);

  // Scroll: to the bottom when the conversation opens and when a message arrives while the agent is at the bottom
  // (or sent it); after an older page loads, exactly where it was.
  const shown = useRef<{ newestId: number; oldestId: number } | null>(null);
  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list || !page) return;
    const before = shown.current;
    if (!before) list.scrollTop = list.scrollHeight;
    else if (oldestId !== before.oldestId && anchor.current) list.scrollTop = anchor.current.top + (list.scrollHeight - anchor.current.height);
    else if (newestId !== before.newestId && (nearBottom.current || newestMine)) list.scrollTop = list.scrollHeight;
    if (oldestId !== before?.oldestId) anchor.current = null;
    shown.current = { newestId, oldestId };
  }, [page, newestId, oldestId, newestMine]);

  async function loadOlder() {
    const list = listRef.current;
    if (!page?.pageInfo.hasNextPage || loadingOlder) return;
    if (list) anchor.current = { height: list.scrollHeight, top: list.scrollTop };
    setLoadingOlder(true);
    try {
      await fetchMore({ variables: { after: page.pageInfo.endCursor } });
    } catch (error) {
      console.warn('older messages', error);
    } finally {
      setLoadingOlder(false);
    }
  }

  function onScroll() {
    const list = listRef.current;
    if (!list) return;
    nearBottom.current = list.scrollHeight - list.scrollTop - list.clientHeight < 60;
    if (list.scrollTop < LOAD_OLDER_WITHIN_PX) void loadOlder();
  }

  async function send(event: React.FormEvent) {
    event.preventDefault();
    setSendError(null);
    try {
      await sendMessage({ variables: { receiverId: partner.id, text: draft } });
      setDraft('');
    } catch (caught) {
      const failure = describeError(caught);
      setSendError(Object.values(failure.fields)[0]?.[0] ?? failure.message);
    }
  }

  function onDraft(text: string) {
    setDraft(text);
    // The partner sees "… is typing…": one signal per 2 s while typing (the server drops more anyway).
    if (text.trim() && Date.now() - lastTypingSignal.current >= TYPING_SIGNAL_EVERY_MS) {
      lastTypingSignal.current = Date.now();
      notifyTyping({ variables: { partnerId: partner.id } }).catch(() => {});
    }
  }

  function modeOf(id: number): MessageCardMode {
    if (!pending) return 'normal';
    return pending.id === id ? pending.kind : 'locked';
  }

  const chronological = [...nodes].reverse();
  return (
    <>
      {!page ? (
        <p className="empty-conversation muted">Loading...</p>
      ) : nodes.length > 0 ? (
        <ol className="message-list" ref={listRef} onScroll={onScroll} aria-busy={loadingOlder}>
          {page.pageInfo.hasNextPage && (
            <li className="load-older">
              <button type="button" className="button button-small button-ghost" onClick={() => void loadOlder()} disabled={loadingOlder}>
                {loadingOlder ? 'Loading...' : 'Load older messages'}
              </button>
            </li>
          )}
          {chronological.map((message) => (
            <MessageCard
              key={message.id}
              message={message}
              mine={message.senderId === me.id}
              mode={modeOf(message.id)}
              onEdit={() => setPending({ kind: 'editing', id: message.id })}
              onDelete={() => setPending({ kind: 'confirming', id: message.id })}
              onCancel={() => setPending(null)}
              onSave={async (text) => {
                await editMessage({ variables: { id: message.id, text } });
                setPending(null);
              }}
              onConfirmDelete={async () => {
                await deleteMessage({ variables: { id: message.id } });
                setPending(null);
              }}
            />
          ))}
        </ol>
      ) : (
        <p className="empty-conversation muted">No messages yet. Say hello to {partner.username}.</p>
      )}
      {/* A live region, not role="status": the shell's connection status is the page's one status region. */}
      <p className="typing-indicator muted" aria-live="polite">
        {typing ? `${partner.username} is typing…` : ''}
      </p>
      <form className="composer" onSubmit={send} noValidate>
        <label htmlFor={composeId} className="visually-hidden">
          Message to {partner.username}
        </label>
        <textarea
          className="input"
          id={composeId}
          aria-describedby={`${composeId}-hint`}
          aria-keyshortcuts="Control+Enter Meta+Enter"
          rows={2}
          placeholder={`Message ${partner.username}`}
          value={draft}
          onChange={(event) => onDraft(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) event.currentTarget.form?.requestSubmit();
          }}
        />
        <button type="submit" className="button button-primary" disabled={sending}>
          {sending ? 'Loading...' : 'Send'}
        </button>
        <p className="composer-hint muted" id={`${composeId}-hint`}>
          <kbd>Ctrl</kbd>+<kbd>Enter</kbd> (<kbd>⌘</kbd>+<kbd>Enter</kbd> on a Mac) sends.
        </p>
        {sendError && <p className="field-errors-inline composer-error">{sendError}</p>}
      </form>
    </>
  );
}
