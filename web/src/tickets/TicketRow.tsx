import { useMutation } from '@apollo/client/react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { describeError } from '../apollo/errors';
import { syncMyTickets } from '../apollo/cachedLists';
import { useSignedInUser } from '../app/session';
import { graphql, useFragment, type FragmentType } from '../gql';
import { PriorityBadge, StatusBadge, TypeBadge } from '../ui/Badges';
import { ImagePlaceholderIcon } from '../ui/Icons';
import '../ui/table.css';
import { SearchMatchLine } from './SearchMatchLine';
import { ticketHref } from './ticketNav';
import './tickets.css';

export const TicketRow_ticket = graphql(`
  fragment TicketRow_ticket on Ticket {
    id
    title
    type
    priority
    status
    requesterId
    updatedAt
    awaitingReply
    requester {
      id
      name
    }
    image {
      id
      url
    }
    version
    assigneeId
    assignee {
      id
      username
    }
    teamId
    team {
      id
      name
      memberIds
    }
    searchMatch {
      in
      snippet
      highlights {
        start
        length
      }
    }
  }
`);

/** The ticket page's take, from the list: the answer updates the row and the agent's own lists. */
const TAKE_FROM_LIST = graphql(`
  mutation TakeTicketFromList($id: Int!, $expectedVersion: Int!) {
    takeTicket(id: $id, expectedVersion: $expectedVersion) {
      id
      updatedAt
      ...TicketRow_ticket
    }
  }
`);

/** One dashboard row; the whole row opens the ticket. Each cell carries an inline label for narrow screens. */
/** `from`: the list's own address parameters (kept in the ticket's address for Next, Previous and Back to the list). */
export function TicketRow(props: { ticket: FragmentType<typeof TicketRow_ticket>; from?: string }) {
  const ticket = useFragment(TicketRow_ticket, props.ticket);
  const navigate = useNavigate();
  const me = useSignedInUser();
  const [problem, setProblem] = useState<string | null>(null);
  const [take, { loading: taking }] = useMutation(TAKE_FROM_LIST, {
    update(cache, { data }) {
      if (data) syncMyTickets(cache, data.takeTicket.id, true);
    },
  });
  const href = ticketHref(ticket.id, props.from ?? null);
  const mayTake = ticket.assigneeId == null && !!ticket.team?.memberIds.includes(me.id);

  async function takeIt(event: React.MouseEvent) {
    // The row opens the ticket; the button only takes it.
    event.stopPropagation();
    setProblem(null);
    try {
      await take({ variables: { id: ticket.id, expectedVersion: ticket.version } });
    } catch (error) {
      // Taken by someone else first (CONFLICT), or refused: the message says which; the live counts refresh the list.
      setProblem(describeError(error).message);
    }
  }

  return (
    <tr className="ticket-row" onClick={() => navigate(href)}>
      <td>
        <span className="cell-label">Id</span>
        <Link to={href} className="ticket-id">
          #{ticket.id}
        </Link>
      </td>
      <td>
        <span className="cell-label">Subject</span>
        <Link to={href} className="ticket-subject">
          {ticket.title}
        </Link>{' '}
        <StatusBadge status={ticket.status} />
        {ticket.awaitingReply && (
          <span className="badge badge-awaiting" title="The requester's last message is unanswered">
            <span aria-hidden="true">✉</span> Awaiting reply
          </span>
        )}
        <SearchMatchLine match={ticket.searchMatch} />
      </td>
      <td>
        <span className="cell-label">Requester</span>
        {ticket.requester.name}
      </td>
      <td>
        <span className="cell-label">Assignee</span>
        {ticket.assignee ? ticket.assignee.username : 'Unassigned'}{' '}
        {mayTake && (
          <button
            type="button"
            className="button button-secondary button-small ticket-take"
            onClick={takeIt}
            disabled={taking}
            aria-label={`Take ticket ${ticket.id}`}
          >
            {taking ? 'Taking…' : 'Take'}
          </button>
        )}
        {problem && (
          <span className="field-error" role="alert">
            {problem}
          </span>
        )}
      </td>
      <td>
        <span className="cell-label">Team</span>
        {ticket.team ? ticket.team.name : 'No team'}
      </td>
      <td>
        <span className="cell-label">Type</span>
        <TypeBadge type={ticket.type} />
      </td>
      <td>
        <span className="cell-label">Priority</span>
        <PriorityBadge priority={ticket.priority} />
      </td>
      <td>
        <span className="cell-label">Image</span>
        {ticket.image ? (
          // The size is fixed (CSS, and these attributes before it applies): the row does not move when the image arrives.
          <img className="ticket-thumb" src={ticket.image.url} alt={`Ticket ${ticket.id} attachment`} width={56} height={42} loading="lazy" />
        ) : (
          <span className="ticket-thumb ticket-thumb-empty">
            <ImagePlaceholderIcon />
          </span>
        )}
      </td>
    </tr>
  );
}
