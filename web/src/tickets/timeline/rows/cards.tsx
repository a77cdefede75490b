/**
 * The timeline's cards, one component per entry kind that stands on its own (changes are lines: ChangeRow.tsx):
 * a public reply with its mail's delivery, a requester's message (with its mail's facts and the held-mail actions),
 * a note. Each is memoized on its entry object (Apollo keeps an unchanged entry's object).
 */
import { memo } from 'react';
import { RelativeTime } from '../../../ui/RelativeTime';
import { viaWords } from '../entries';
import type { NoteEntry, ReplyEntry, RequesterMessageEntry } from '../entryTypes';
import { MailFacts } from '../HeldMail';
import { TimelineNote, type NoteMode } from '../TimelineNote';
import { Attachments } from './Attachments';

/** A reply's mail, in words: where it is now (updated live). */
export function deliveryWords(delivery: ReplyEntry['delivery']): string {
  switch (delivery.state) {
    case 'SENT':
      return 'Emailed to the requester';
    case 'FAILED':
      return `Not delivered after ${delivery.attempts} attempts${delivery.lastResponse ? `: ${delivery.lastResponse}` : ''}`;
    case 'NOT_CONFIGURED':
      return 'not emailed: no mail server configured';
    case 'BOUNCED':
      return `Not delivered${delivery.lastResponse ? `: ${delivery.lastResponse}` : ' (returned by a mail server)'}`;
    default:
      return delivery.attempts > 0
        ? `Sending (attempt ${delivery.attempts + 1})${delivery.lastResponse ? `: ${delivery.lastResponse}` : ''}`
        : 'Sending email...';
  }
}

/** "demo replied to the requester · 2 min. ago", the text, and where its mail is. */
export const ReplyRow = memo(function ReplyRow({ reply }: { reply: ReplyEntry }) {
  return (
    <li className="timeline-row">
      <article className="timeline-reply" aria-label={`Reply by ${reply.author.username}`}>
        <p className="timeline-public-head">
          <span aria-hidden="true">✉</span> <strong>{reply.author.username}</strong> replied to the requester · <RelativeTime value={reply.at} />
        </p>
        <p className="timeline-public-body">{reply.text}</p>
        <Attachments files={reply.attachments} />
        <p
          className={`delivery${reply.delivery.state === 'FAILED' || reply.delivery.state === 'BOUNCED' ? ' delivery-failed' : ''}`}
          data-delivery={reply.delivery.state}
        >
          {deliveryWords(reply.delivery)}
        </p>
      </article>
    </li>
  );
});

/** "ada@example.com wrote on the requester's page · 1 min. ago" and the text. */
export const MessageRow = memo(function MessageRow({ message }: { message: RequesterMessageEntry }) {
  const door = viaWords(message.via);
  return (
    <li className="timeline-row">
      <article className="timeline-message" aria-label={`Message from ${message.fromEmail}`}>
        <p className="timeline-public-head">
          <strong>{message.fromEmail}</strong> wrote{door && ` ${door}`} · <RelativeTime value={message.at} />
          {message.held && !message.discardedAt && ' · held for review'}
        </p>
        {message.discardedAt ? (
          <p className="muted">Discarded.</p>
        ) : (
          <>
            {message.subject && <p className="timeline-mail-subject">{message.subject}</p>}
            <p className="timeline-public-body">{message.text}</p>
            <Attachments files={message.attachments} />
          </>
        )}
        {message.via === 'EMAIL' && <MailFacts message={message} />}
      </article>
    </li>
  );
});

/** What a note's row can ask of the timeline (stable callbacks: the rows are memoized). */
export interface RowActions {
  startEdit: (id: number) => void;
  cancelEdit: () => void;
  save: (id: number, body: string) => Promise<void>;
  confirmDelete: (id: number) => void;
}

export const NoteRow = memo(function NoteRow({ note, mine, mode, actions }: { note: NoteEntry; mine: boolean; mode: NoteMode; actions: RowActions }) {
  return (
    <li className="timeline-row">
      <TimelineNote
        note={note}
        mine={mine}
        mode={mode}
        onEdit={() => actions.startEdit(note.id)}
        onCancel={actions.cancelEdit}
        onSave={(body) => actions.save(note.id, body)}
        onDelete={() => actions.confirmDelete(note.id)}
      />
    </li>
  );
});
