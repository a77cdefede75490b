import { useQuery, useReactiveVar } from '@apollo/client/react';
import { useEffect, useState } from 'react';
import { useLoginAs } from '../app/auth';
import { describeError } from '../apollo/errors';
import { LoadFailedNotice, PageLoading } from '../ui/PageStates';
import { useAllPages } from '../apollo/useAllPages';
import { Modal } from '../ui/Modal';
import { demoAccountFor } from '../app/demoAccounts';
import { graphql } from '../gql';
import { ConversationUnreadBadge } from '../live/unread';
import { liveStatusVar } from '../live/connection';
import { useSignedInUser } from '../app/session';
import { ConversationView } from './ConversationView';
import './messages.css';

/**
 * The picker's data: every agent (with who is online; a workspace of more than 100 agents loads the rest in pages) and the read state of the agent's newest 100 conversations.
 * A conversation's messages are loaded by ConversationView, a page at a time; nothing loads all messages.
 */
export const MESSAGE_CENTER = graphql(`
  query MessageCenter($after: String) {
    users(first: 100, after: $after) {
      nodes {
        id
        username
        email
        online
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
    conversations(first: 100) {
      nodes {
        partnerId
        unreadCount
        ...ConversationUnread_conversation
      }
    }
  }
`);

/** The conversation picker, the selected conversation, the composer and the demo helper. Page and modal share it. */
export function MessageCenter() {
  const me = useSignedInUser();
  const { data, error, refetch, fetchMore } = useQuery(MESSAGE_CENTER);
  useAllPages(data?.users, fetchMore);
  const [partnerId, setPartnerId] = useState<number | null>(null);
  const [helperError, setHelperError] = useState<string | null>(null);
  const loginAs = useLoginAs();
  // The viewer is online while this tab's socket is up (their own "came online" may precede the subscription).
  const connected = useReactiveVar(liveStatusVar) === 'connected';

  // Start with the conversation with the newest unread message (conversations come newest activity first), else
  // the first other agent.
  useEffect(() => {
    if (!data || partnerId !== null) return;
    const unreadFrom = data.conversations.nodes.find((c) => c.unreadCount > 0)?.partnerId;
    const start = data.users.nodes.find((user) => user.id === unreadFrom) ?? data.users.nodes.find((user) => user.id !== me.id);
    // eslint-disable-next-line react-hooks/set-state-in-effect -- picks the starting conversation once, when the data first arrives; later data must not move it
    setPartnerId(start?.id ?? null);
  }, [data, partnerId, me.id]);

  if (!data) return error ? <LoadFailedNotice what="conversations" error={error} retry={refetch} /> : <PageLoading />;
  const partner = data.users.nodes.find((user) => user.id === partnerId) ?? null;
  const partnerAccount = partner ? demoAccountFor(partner.id) : undefined;

  return (
    <div className="message-center">
      <aside className="conversation-picker">
        <h2 className="picker-title">Conversations</h2>
        {/* eslint-disable-next-line jsx-a11y/no-redundant-roles -- list-style: none drops the list role in Safari; this puts it back */}
        <ul role="list">
          {data.users.nodes.map(({ online: reported, ...user }) => {
            const online = user.id === me.id ? connected || reported : reported;
            return (
              <li key={user.id}>
                <button
                  type="button"
                  className={`conversation${user.id === partnerId ? ' conversation-active' : ''}`}
                  disabled={user.id === me.id}
                  aria-pressed={user.id === partnerId}
                  data-online={online}
                  onClick={() => {
                    setPartnerId(user.id);
                    setHelperError(null);
                  }}
                >
                  <span className="avatar" aria-hidden="true">
                    {user.username.slice(0, 1).toUpperCase()}
                    <span className={`presence-dot${online ? ' presence-online' : ''}`} />
                  </span>
                  <span className="conversation-name">
                    {user.username}
                    {user.id === me.id && <span className="muted"> (you)</span>}
                  </span>
                  {user.id !== me.id && <span className="visually-hidden">{online ? ', online' : ', offline'}</span>}
                  {user.id !== me.id && <ConversationUnreadBadge partnerId={user.id} />}
                </button>
              </li>
            );
          })}
        </ul>
      </aside>
      <section className="conversation-panel" aria-label={partner ? `Conversation with ${partner.username}` : 'Conversation'}>
        {partner ? (
          <>
            <header className="conversation-header">
              <div className="conversation-title">
                <h2>{partner.username}</h2>
                <p className="conversation-presence muted" data-online={partner.online}>
                  <span className={`presence-dot${partner.online ? ' presence-online' : ''}`} aria-hidden="true" />
                  {partner.online ? 'Online' : 'Offline'}
                </p>
              </div>
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
            <ConversationView key={partner.id} partner={partner} />
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
