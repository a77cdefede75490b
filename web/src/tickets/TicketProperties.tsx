import { useMutation, useQuery } from '@apollo/client/react';
import { useEffect, useId, useRef, useState, type ComponentType } from 'react';
import { Link } from 'react-router-dom';
import { TICKET_PRIORITIES, TICKET_TYPES } from '@fulcrum/schema/validation';
import { describeError } from '../apollo/errors';
import { graphql, useFragment, type FragmentType } from '../gql';
import type { TicketDetail_TicketFragment, TicketInput } from '../gql/graphql';
import { NO_MACRO_ID, useMacroChoices } from './timeline/macroChoices';
import { ImagePlaceholderIcon } from '../ui/Icons';
import { TicketAssignment } from './TicketAssignment';
import { TicketStatusControl } from './TicketStatusControl';
import './tickets.css';

export const TicketDetail_ticket = graphql(`
  fragment TicketDetail_ticket on Ticket {
    id
    title
    subject
    type
    priority
    status
    description
    requesterId
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
    ...TicketStatusControl_ticket
    ...TicketAssignment_ticket
  }
`);

const UPDATE_PROPERTY = graphql(`
  mutation UpdateTicketProperty($id: Int!, $input: TicketInput!) {
    updateTicket(id: $id, input: $input) {
      id
      type
      priority
      status
      updatedAt
      version
      macro {
        id
        name
      }
    }
  }
`);

const REQUESTER_TICKETS = graphql(`
  query RequesterOpenTickets($requesterId: Int!) {
    tickets(first: 6, filter: { requesterId: $requesterId, status: [OPEN, PENDING] }, orderBy: UPDATED) {
      nodes {
        id
        title
        status
      }
    }
  }
`);

type Ticket = TicketDetail_TicketFragment;

/** What every property gets: the ticket, a way to change its plain fields, and the page's reload. */
export interface PropertyProps {
  ticket: Ticket;
  update: (change: Partial<TicketInput>) => Promise<void>;
  reload: () => Promise<unknown>;
}

/** One property of the side column: a term and its value (editable where the value is the agent's to change). */
function Property({ label, labelFor, children }: { label: string; labelFor?: string; children: React.ReactNode }) {
  return (
    <div>
      <dt>{labelFor ? <label htmlFor={labelFor}>{label}</label> : label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function StatusProperty({ ticket }: PropertyProps) {
  return (
    <dl className="detail-list">
      <Property label="Status">
        <TicketStatusControl ticket={ticket} />
      </Property>
    </dl>
  );
}

/** A select that saves on change (priority, type): the ticket's value, changed in place. */
function choiceProperty(label: string, field: 'priority' | 'type', values: readonly string[]) {
  return function ChoiceProperty({ ticket, update }: PropertyProps) {
    const id = useId();
    const [busy, setBusy] = useState(false);
    return (
      <dl className="detail-list">
        <Property label={label} labelFor={id}>
          <select
            id={id}
            className="property-select"
            value={ticket[field]}
            aria-busy={busy}
            onChange={(event) => {
              setBusy(true);
              void update({ [field]: event.target.value }).finally(() => setBusy(false));
            }}
          >
            {values.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </Property>
      </dl>
    );
  };
}

function AssignmentProperty({ ticket, reload }: PropertyProps) {
  return (
    <>
      <dl className="detail-list">
        <Property label="Team">{ticket.team?.name ?? 'No team (private)'}</Property>
        <Property label="Assignee">{ticket.assignee?.username ?? 'Unassigned'}</Property>
      </dl>
      <TicketAssignment ticket={ticket} reload={reload} />
    </>
  );
}

/** The requester, and their other open tickets the viewer may read (the tickets query by requester). */
function RequesterProperty({ ticket }: PropertyProps) {
  const { data } = useQuery(REQUESTER_TICKETS, { variables: { requesterId: ticket.requester.id }, fetchPolicy: 'cache-and-network' });
  const others = data?.tickets.nodes.filter((other) => other.id !== ticket.id).slice(0, 5) ?? [];
  return (
    <dl className="detail-list">
      <Property label="Requester">
        <span className="property-strong">{ticket.requester.name}</span>
        <span className="muted property-sub">{ticket.requester.email}</span>
        {others.length > 0 && (
          <ul className="requester-tickets" aria-label={`Other open tickets of ${ticket.requester.name}`}>
            {others.map((other) => (
              <li key={other.id}>
                <Link to={`/view/ticket/${other.id}`}>
                  <span className="ticket-id">#{other.id}</span> {other.title}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </Property>
    </dl>
  );
}

/** The ticket's macro (apply_macro): its name; Change opens the choice in place. */
function MacroProperty({ ticket, update }: PropertyProps) {
  const id = useId();
  const [changing, setChanging] = useState(false);
  const { macros } = useMacroChoices();
  const select = useRef<HTMLSelectElement>(null);
  // The choice opens where Change was: focus goes to it.
  useEffect(() => {
    if (changing) select.current?.focus();
  }, [changing, macros]);
  return (
    <dl className="detail-list">
      <Property label="Apply Macro" labelFor={changing ? id : undefined}>
        {changing && macros ? (
          <select
            id={id}
            ref={select}
            className="property-select"
            value={ticket.macro.id}
            onChange={(event) => {
              void update({ macroId: Number(event.target.value) }).finally(() => setChanging(false));
            }}
            onBlur={() => setChanging(false)}
          >
            {[...macros]
              .sort((a, b) => (a.id === NO_MACRO_ID ? -1 : b.id === NO_MACRO_ID ? 1 : 0))
              .map((macro) => (
                <option key={macro.id} value={macro.id}>
                  {macro.name}
                </option>
              ))}
          </select>
        ) : (
          <span className="property-inline">
            <span>{ticket.macro.name}</span>{' '}
            <button type="button" className="button button-link button-small" onClick={() => setChanging(true)} aria-label="Change the ticket's macro">
              Change
            </button>
          </span>
        )}
      </Property>
    </dl>
  );
}

/** The image as a thumbnail that opens full size (its box is sized before the bytes arrive). */
function ImageProperty({ ticket }: PropertyProps) {
  return (
    <dl className="detail-list">
      <Property label="Image">
        <figure className="ticket-detail-image">
          {ticket.image ? (
            <a href={ticket.image.url} target="_blank" rel="noreferrer" aria-label={`Open the image of ticket ${ticket.id} full size`}>
              <img src={ticket.image.url} alt={`Ticket ${ticket.id} attachment`} width={ticket.image.width} height={ticket.image.height} />
            </a>
          ) : (
            <div className="image-placeholder">
              <ImagePlaceholderIcon width={28} height={28} />
              <span className="muted">No image</span>
            </div>
          )}
        </figure>
      </Property>
    </dl>
  );
}

/** The side column's properties, in order: a later property is one more entry here. */
const PROPERTIES: readonly { key: string; Component: ComponentType<PropertyProps> }[] = [
  { key: 'status', Component: StatusProperty },
  { key: 'priority', Component: choiceProperty('Priority', 'priority', TICKET_PRIORITIES) },
  { key: 'type', Component: choiceProperty('Type', 'type', TICKET_TYPES) },
  { key: 'assignment', Component: AssignmentProperty },
  { key: 'requester', Component: RequesterProperty },
  { key: 'macro', Component: MacroProperty },
  { key: 'image', Component: ImageProperty },
];

/**
 * The ticket's properties beside the conversation (sticky while it scrolls), each editable in place where the
 * agent may change it: status, priority and type save on change, team and assignee through Take / Assign, the
 * macro through Change; the requester with their other open tickets; the image as a thumbnail.
 */
export function TicketProperties(props: { ticket: FragmentType<typeof TicketDetail_ticket>; reload: () => Promise<unknown> }) {
  const ticket = useFragment(TicketDetail_ticket, props.ticket);
  const [failed, setFailed] = useState<string | null>(null);
  const [save] = useMutation(UPDATE_PROPERTY);

  async function update(change: Partial<TicketInput>) {
    setFailed(null);
    const input: TicketInput = {
      title: ticket.title,
      description: ticket.description,
      requesterId: ticket.requesterId,
      macroId: ticket.macro.id,
      priority: ticket.priority,
      type: ticket.type,
      status: ticket.status,
      ...change,
    };
    try {
      await save({ variables: { id: ticket.id, input } });
    } catch (error) {
      setFailed(describeError(error).message);
    }
  }

  return (
    <aside className="ticket-side" aria-labelledby="ticket-details-heading">
      <h2 id="ticket-details-heading" className="ticket-side-heading">
        Ticket Details
      </h2>
      {failed && (
        <p className="form-error" role="alert">
          {failed}
        </p>
      )}
      {PROPERTIES.map(({ key, Component }) => (
        <div key={key} className={`property property-${key}`}>
          <Component ticket={ticket} update={update} reload={props.reload} />
        </div>
      ))}
    </aside>
  );
}
