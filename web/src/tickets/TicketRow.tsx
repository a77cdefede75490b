import { Link, useNavigate } from 'react-router-dom';
import { graphql, useFragment, type FragmentType } from '../gql';
import { PriorityBadge, StatusBadge, TypeBadge } from '../ui/Badges';
import { ImagePlaceholderIcon } from '../ui/Icons';
import '../ui/table.css';
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
  }
`);

/** One dashboard row; the whole row opens the ticket. Each cell carries an inline label for narrow screens. */
export function TicketRow(props: { ticket: FragmentType<typeof TicketRow_ticket> }) {
  const ticket = useFragment(TicketRow_ticket, props.ticket);
  const navigate = useNavigate();
  const href = `/view/ticket/${ticket.id}`;
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
      </td>
      <td>
        <span className="cell-label">Requester</span>
        {ticket.requester.name}
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
