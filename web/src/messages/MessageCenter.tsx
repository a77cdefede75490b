import { useMutation, useQuery } from '@apollo/client/react';
import { useEffect, useId, useRef, useState } from 'react';
import { useLoginAs } from '../session/auth';
import { describeError } from '../apollo/errors';
import { addMessageToLists, removeMessage } from '../apollo/lists';
import { Modal } from '../ui/Modal';
import { demoAccountFor } from '../session/demoAccounts';
import { graphql } from '../gql';
import { latestUnreadSender, UnreadBadge, useViewingConversation } from '../live/unread';
import { useSignedInUser } from '../session/session';
import { MessageCard, type MessageCardMode } from './MessageCard';

export const MESSAGE_CENTER = graphql(`
  query MessageCenter {
    users(first: 100) {
      nodes {
        id
        username
        email
      }
    }
    messages {
      id
      senderId
      receiverId
      ...MessageCard_message
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

type Pending = { kind: 'editing' | 'confirming'; id: number } | null;

/** The conversation picker, the selected conversation, the composer and the demo helper. Page and modal share it. */
export function MessageCenter() {
  const me = useSignedInUser();
  const { data } = useQuery(MESSAGE_CENTER);
  const [partnerId, setPartnerId] = useState<number | null>(null);
  const [draft, setDraft] = useState('');
  const [sendError, setSendError] = useState<string | null>(null);
  const [pending, setPending] = useState<Pending>(null);
  const [helperError, setHelperError] = useState<string | null>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const composeId = useId();
  const loginAs = useLoginAs();

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

  // The open conversation is read: its unread count clears, and messages arriving in it do not count.
  useViewingConversation(partnerId);

  // Start with the conversation of the newest unread message, else the first conversation partner.
  useEffect(() => {
    if (!data || partnerId !== null) return;
    const unreadFrom = latestUnreadSender();
    const start = data.users.nodes.find((user) => user.id === unreadFrom) ?? data.users.nodes.find((user) => user.id !== me.id);
    setPartnerId(start?.id ?? null);
  }, [data, partnerId, me.id]);

  const conversation = data?.messages.filter(
    (message) =>
      (message.senderId === me.id && message.receiverId === partnerId) ||
      (message.senderId === partnerId && message.receiverId === me.id),
  );

  useEffect(() => {
    listRef.current?.lastElementChild?.scrollIntoView({ block: 'nearest' });
  }, [conversation?.length, partnerId]);

  if (!data) return null;
  const partner = data.users.nodes.find((user) => user.id === partnerId) ?? null;
  const partnerAccount = partner ? demoAccountFor(partner.id) : undefined;

  async function send(event: React.FormEvent) {
    event.preventDefault();
    if (partnerId === null) return;
    setSendError(null);
    try {
      await sendMessage({ variables: { receiverId: partnerId, text: draft } });
      setDraft('');
    } catch (caught) {
      const failure = describeError(caught);
      setSendError(Object.values(failure.fields)[0]?.[0] ?? failure.message);
    }
  }

  function modeOf(id: number): MessageCardMode {
    if (!pending) return 'normal';
    return pending.id === id ? pending.kind : 'locked';
  }

  return (
    <div className="message-center">
      <aside className="conversation-picker">
        <h2 className="picker-title">Conversations</h2>
        <ul role="list">
          {data.users.nodes.map((user) => (
            <li key={user.id}>
              <button
                type="button"
                className={`conversation${user.id === partnerId ? ' conversation-active' : ''}`}
                disabled={user.id === me.id}
                aria-pressed={user.id === partnerId}
                onClick={() => {
                  setPartnerId(user.id);
                  setPending(null);
                  setHelperError(null);
                }}
              >
                <span className="avatar" aria-hidden="true">{user.username.slice(0, 1).toUpperCase()}</span>
                <span className="conversation-name">
                  {user.username}
                  {user.id === me.id && <span className="muted"> (you)</span>}
                </span>
                <UnreadBadge fromUserId={user.id} />
              </button>
            </li>
          ))}
        </ul>
      </aside>
      <section className="conversation-panel" aria-label={partner ? `Conversation with ${partner.username}` : 'Conversation'}>
        {partner ? (
          <>
            <header className="conversation-header">
              <h2>{partner.username}</h2>
              <div className="demo-helper">
                {partnerAccount ? (
                  <button
                    type="button"
                    className="button button-small button-secondary"
                    onClick={async () => {
                      setHelperError(null);
                      try {
                        await loginAs(partnerAccount.email, partnerAccount.password, '/message/center');
                      } catch (caught) {
                        setHelperError(describeError(caught).message);
                      }
                    }}
                  >
                    Log in as {partnerAccount.username}
                  </button>
                ) : (
                  <p className="muted">Your Partner's Login Is Not Saved</p>
                )}
                {helperError && <p className="form-error">{helperError}</p>}
              </div>
            </header>
            {conversation && conversation.length > 0 ? (
              <ol className="message-list" ref={listRef}>
                {conversation.map((message) => (
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
            <form className="composer" onSubmit={send} noValidate>
              <label htmlFor={composeId} className="visually-hidden">Message to {partner.username}</label>
              <textarea
                id={composeId}
                rows={2}
                placeholder={`Message ${partner.username}`}
                value={draft}
                onChange={(event) => setDraft(event.target.value)}
                onKeyDown={(event) => {
                  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) event.currentTarget.form?.requestSubmit();
                }}
              />
              <button type="submit" className="button button-primary" disabled={sending}>
                {sending ? 'Loading...' : 'Send'}
              </button>
              {sendError && <p className="field-errors-inline composer-error">{sendError}</p>}
            </form>
          </>
        ) : (
          <p className="empty-conversation muted">Pick someone to talk to.</p>
        )}
      </section>
    </div>
  );
}

export function MessageCenterModal({ onClose }: { onClose: () => void }) {
  return (
    <Modal title="Message Center" onClose={onClose} size="wide">
      <MessageCenter />
    </Modal>
  );
}
