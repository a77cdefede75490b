import { useLazyQuery, useMutation } from '@apollo/client/react';
import { useState } from 'react';
import { graphql } from '../../gql';
import { loadProblem, problemText } from '../../apollo/errors';
import { ConfirmModal } from '../../ui/ConfirmModal';
import type { RequesterMessageEntry } from './entryTypes';

const ACCEPT = graphql(`
  mutation AcceptRequesterMessage($id: Int!) {
    acceptRequesterMessage(id: $id) {
      ...TimelineEntry_requesterMessage
    }
  }
`);

const DISCARD = graphql(`
  mutation DiscardRequesterMessage($id: Int!) {
    discardRequesterMessage(id: $id) {
      ...TimelineEntry_requesterMessage
    }
  }
`);

const ORIGINAL = graphql(`
  query MailOriginal($messageId: Int!) {
    mailOriginal(messageId: $messageId) {
      subject
      fromEmail
      text
      html
    }
  }
`);

/** A failure in words: what happened and what to do. */
function say(error: unknown): string {
  const text = problemText(loadProblem(error), 'message', error);
  return `${text.title}. ${text.detail}`;
}

const HELD_WORDS: Record<string, string> = {
  SENDER: "Held: it came from an address other than the requester's.",
  DMARC: "Held: the sender's domain failed DMARC (the sender may be forged).",
  LOOP: 'Held: automatic mail (an auto-reply or a bounce); never answered, never reopens the ticket.',
  UNVERIFIED: 'Held: only the thread reference ties it to this ticket, and its sender is not authenticated (no aligned DKIM, no DMARC pass).',
};

/**
 * A mailed message's facts: its sender authentication, why it is held with Accept and Discard (the
 * mutations' results update the entry in the cache), and its full original on demand (the sanitised HTML in a
 * sandboxed frame, which runs nothing; or the whole text).
 */
export function MailFacts({ message }: { message: RequesterMessageEntry }) {
  const [accept, accepting] = useMutation(ACCEPT);
  const [discard, discarding] = useMutation(DISCARD);
  const [loadOriginal, original] = useLazyQuery(ORIGINAL);
  const [problem, setProblem] = useState<string | null>(null);
  // Discarding deletes the mail's text and files for good: asked first, as every delete is.
  const [confirming, setConfirming] = useState(false);
  const auth = message.authentication;
  const settle = (run: (options: { variables: { id: number } }) => Promise<unknown>) => () => {
    setProblem(null);
    run({ variables: { id: message.id } }).catch((error: unknown) => setProblem(say(error)));
  };
  const busy = accepting.loading || discarding.loading;
  const mail = original.data?.mailOriginal;
  return (
    <div className="timeline-mail">
      {auth && (
        <p className="muted timeline-mail-auth" data-dmarc={auth.dmarc}>
          SPF {auth.spf} · DKIM {auth.dkim} · DMARC {auth.dmarc}
        </p>
      )}
      {message.held && !message.discardedAt && (
        <div className="timeline-held" role="group" aria-label="Held mail">
          <p>{HELD_WORDS[message.heldReason ?? 'SENDER']}</p>
          <div className="timeline-held-actions">
            <button type="button" className="button button-primary button-small" disabled={busy} onClick={settle(accept)}>
              Accept
            </button>
            <button type="button" className="button button-danger-ghost button-small" disabled={busy} onClick={() => setConfirming(true)}>
              Discard
            </button>
          </div>
          {confirming && (
            <ConfirmModal
              title="Discard this mail?"
              question="Its text, its original and its files are deleted for good; the timeline keeps that a mail came and that you discarded it."
              confirmLabel="Discard"
              onConfirm={async () => {
                await discard({ variables: { id: message.id } });
                setConfirming(false);
              }}
              onClose={() => setConfirming(false)}
            />
          )}
          {problem && <p role="alert">{problem}</p>}
        </div>
      )}
      {!message.discardedAt && (
        <details
          className="timeline-original"
          onToggle={(event) => {
            if (event.currentTarget.open && !original.called) void loadOriginal({ variables: { messageId: message.id } });
          }}
        >
          <summary>Show the full original</summary>
          {original.loading && <p className="muted">Loading…</p>}
          {original.error && <p role="alert">{say(original.error)}</p>}
          {mail &&
            (mail.html ? (
              <iframe title={`Original mail from ${mail.fromEmail}`} sandbox="" srcDoc={mail.html} className="timeline-original-html" />
            ) : (
              <pre className="timeline-original-text">{mail.text}</pre>
            ))}
        </details>
      )}
    </div>
  );
}
