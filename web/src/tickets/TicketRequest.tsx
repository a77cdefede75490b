import { useId, useState } from 'react';
import { RelativeTime } from '../ui/RelativeTime';
import './tickets.css';

/** Descriptions longer than this open folded to a few lines (the composer stays on screen). */
const FOLD_AT = 280;

/**
 * The requester's request, the conversation's first message: a long description opens folded to four lines
 * with "Show the whole description", so the composer and the latest entry are on screen when the page opens.
 */
export function TicketRequest({ requester, createdAt, description }: { requester: string; createdAt: string; description: string }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const long = description.length > FOLD_AT;
  return (
    <article className="ticket-request" aria-label={`Request from ${requester}`}>
      <p className="ticket-request-head">
        <strong>{requester}</strong> asked · <RelativeTime value={createdAt} />
      </p>
      <p id={id} className={`ticket-description${long && !open ? ' ticket-description-folded' : ''}`}>
        {description}
      </p>
      {long && (
        <button type="button" className="button button-link button-small" aria-expanded={open} aria-controls={id} onClick={() => setOpen((was) => !was)}>
          {open ? 'Show less' : 'Show the whole description'}
        </button>
      )}
    </article>
  );
}
