import { useMutation } from '@apollo/client/react';
import { useState } from 'react';
import { TICKET_STATUSES } from '@fulcrum/schema/validation';
import { graphql, useFragment, type FragmentType } from '../gql';
import type { TicketStatus } from '../gql/graphql';
import { STATUS_LABELS } from '../ui/Badges';
import './tickets.css';

export const TicketStatusControl_ticket = graphql(`
  fragment TicketStatusControl_ticket on Ticket {
    id
    status
  }
`);

const SET_TICKET_STATUS = graphql(`
  mutation SetTicketStatus($id: Int!, $status: TicketStatus!) {
    setTicketStatus(id: $id, status: $status) {
      id
      status
      updatedAt
      version
    }
  }
`);

/**
 * The ticket's status in one click: three toggle buttons, the current one pressed. The answer updates Ticket:{id}
 * in the cache; the live event of the change (this tab gets it too) moves the ticket between the dashboard's
 * filtered lists and counts, in every tab.
 */
export function TicketStatusControl(props: { ticket: FragmentType<typeof TicketStatusControl_ticket> }) {
  const ticket = useFragment(TicketStatusControl_ticket, props.ticket);
  const [setStatus, { loading }] = useMutation(SET_TICKET_STATUS);
  const [failed, setFailed] = useState(false);

  async function choose(status: TicketStatus) {
    if (status === ticket.status) return;
    setFailed(false);
    try {
      await setStatus({ variables: { id: ticket.id, status } });
    } catch (error) {
      console.error('Failed to set the status', error);
      setFailed(true);
    }
  }

  return (
    <div className="status-control">
      <div className="segmented" role="group" aria-label="Status">
        {TICKET_STATUSES.map((status) => (
          <button
            key={status}
            type="button"
            className={`segment segment-${status.toLowerCase()}`}
            aria-pressed={ticket.status === status}
            disabled={loading}
            onClick={() => choose(status)}
          >
            {STATUS_LABELS[status]}
          </button>
        ))}
      </div>
      {failed && (
        <p className="field-error" role="alert">
          The status could not be changed. Check your connection and try again.
        </p>
      )}
    </div>
  );
}
