import { useState } from 'react';
import { validateMessage } from '@fulcrum/schema/validation';
import { graphql, useFragment, type FragmentType } from '../gql';
import { formatDateTime } from '../ui/formatDate';
import './messages.css';

export const MessageCard_message = graphql(`
  fragment MessageCard_message on Message {
    id
    text
    senderId
    createdAt
    updatedAt
    sender {
      id
      username
    }
  }
`);

/** normal; editing or confirming this message; locked while another message is being edited or deleted. */
export type MessageCardMode = 'normal' | 'editing' | 'confirming' | 'locked';

interface MessageCardProps {
  message: FragmentType<typeof MessageCard_message>;
  mine: boolean;
  mode: MessageCardMode;
  onEdit: () => void;
  onDelete: () => void;
  onCancel: () => void;
  onSave: (text: string) => Promise<void>;
  onConfirmDelete: () => Promise<void>;
}

export function MessageCard(props: MessageCardProps) {
  const message = useFragment(MessageCard_message, props.message);
  const [draft, setDraft] = useState(message.text);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const edited = message.updatedAt !== message.createdAt;

  async function save(event: React.FormEvent) {
    event.preventDefault();
    const errors = validateMessage({ message: draft });
    if (errors.message) {
      setError(errors.message[0]);
      return;
    }
    setError(null);
    setBusy(true);
    try {
      await props.onSave(draft);
    } finally {
      setBusy(false);
    }
  }

  return (
    <li className={`message-card${props.mine ? ' message-mine' : ''}`} aria-label={`Message from ${message.sender.username}`}>
      <div className="message-meta">
        <span className="message-author">{props.mine ? 'You' : message.sender.username}</span>
        <time dateTime={message.createdAt}>
          {formatDateTime(message.createdAt)}
          {edited && ' · edited'}
        </time>
      </div>
      {props.mode === 'editing' ? (
        <form className="message-edit" onSubmit={save} noValidate>
          <label className="visually-hidden" htmlFor={`edit-message-${message.id}`}>
            Edit message
          </label>
          <textarea
            className="input"
            id={`edit-message-${message.id}`}
            value={draft}
            rows={3}
            // eslint-disable-next-line jsx-a11y/no-autofocus -- focus follows the Edit button the user pressed into the field it opened
            autoFocus
            aria-invalid={!!error}
            onChange={(event) => setDraft(event.target.value)}
          />
          {error && <p className="field-errors-inline">{error}</p>}
          <div className="message-actions">
            <button type="submit" className="button button-small button-primary" disabled={busy}>
              {busy ? 'Loading...' : 'Save'}
            </button>
            <button type="button" className="button button-small button-secondary" onClick={props.onCancel}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <p className="message-text">{message.text}</p>
      )}
      {props.mine && props.mode === 'confirming' && (
        <div className="message-actions">
          <button type="button" className="button button-small button-danger" onClick={() => void props.onConfirmDelete()}>
            Yes Delete?
          </button>
          <button type="button" className="button button-small button-secondary" onClick={props.onCancel}>
            NO! Cancel!
          </button>
        </div>
      )}
      {props.mine && (props.mode === 'normal' || props.mode === 'locked') && (
        <div className="message-actions">
          <button type="button" className="button button-small button-ghost" onClick={props.onEdit} disabled={props.mode === 'locked'}>
            Edit
          </button>
          <button type="button" className="button button-small button-ghost" onClick={props.onDelete} disabled={props.mode === 'locked'}>
            Delete
          </button>
        </div>
      )}
    </li>
  );
}
