import { graphql, useFragment, type FragmentType } from '../gql';
import { ImagePlaceholderIcon } from '../ui/Icons';
import { PriorityBadge, TypeBadge } from '../ui/Badges';
import { formatDateTime } from '../ui/formatDate';
import './tickets.css';

export const TicketDetail_ticket = graphql(`
  fragment TicketDetail_ticket on Ticket {
    id
    title
    type
    priority
    description
    createdAt
    updatedAt
    assignee {
      id
      username
    }
    team {
      id
      name
    }
    macro {
      id
      name
      description
    }
    requester {
      id
      name
      email
    }
    image {
      id
      url
      width
      height
    }
  }
`);

/** The read-only ticket: every field of the spec and the image (the macro's canned text fills the reply composer). */
export function TicketDetail(props: { ticket: FragmentType<typeof TicketDetail_ticket> }) {
  const ticket = useFragment(TicketDetail_ticket, props.ticket);
  return (
    <div className="ticket-detail">
      <div className="ticket-detail-main">
        <h2 className="ticket-title">{ticket.title}</h2>
        <dl className="detail-list">
          <div>
            <dt>Team</dt>
            <dd>{ticket.team?.name ?? 'No team (private)'}</dd>
          </div>
          <div>
            <dt>Assignee</dt>
            <dd>{ticket.assignee?.username ?? 'Unassigned'}</dd>
          </div>
          <div>
            <dt>Requester</dt>
            <dd>
              {ticket.requester.name} <span className="muted">({ticket.requester.email})</span>
            </dd>
          </div>
          <div>
            <dt>Type</dt>
            <dd>
              <TypeBadge type={ticket.type} />
            </dd>
          </div>
          <div>
            <dt>Priority</dt>
            <dd>
              <PriorityBadge priority={ticket.priority} />
            </dd>
          </div>
          <div>
            <dt>Apply Macro</dt>
            <dd>{ticket.macro.name}</dd>
          </div>
          <div>
            <dt>Updated</dt>
            <dd>
              <time dateTime={ticket.updatedAt}>{formatDateTime(ticket.updatedAt)}</time>
            </dd>
          </div>
        </dl>
        <h3>Description</h3>
        <p className="ticket-description">{ticket.description}</p>
      </div>
      <figure className="ticket-detail-image">
        {ticket.image ? (
          <img src={ticket.image.url} alt={`Ticket ${ticket.id} attachment`} width={ticket.image.width} height={ticket.image.height} />
        ) : (
          <div className="image-placeholder">
            <ImagePlaceholderIcon width={48} height={48} />
          </div>
        )}
      </figure>
    </div>
  );
}
