import { useApolloClient, useMutation } from '@apollo/client/react';
import { useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { describeError, versionConflict } from '../apollo/errors';
import { deletingTicket, removeTicketFromList, syncMyTickets } from '../apollo/cachedLists';
import { useSignedInUser } from '../app/session';
import { graphql, useFragment, type FragmentType } from '../gql';
import { memberChoices, useAssignmentOptions, type AssignmentOptions } from './assignmentOptions';
import './tickets.css';

export const TicketAssignment_ticket = graphql(`
  fragment TicketAssignment_ticket on Ticket {
    id
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
  }
`);

const TAKE_TICKET = graphql(`
  mutation TakeTicket($id: Int!, $expectedVersion: Int!) {
    takeTicket(id: $id, expectedVersion: $expectedVersion) {
      id
      updatedAt
      ...TicketAssignment_ticket
    }
  }
`);

const ASSIGN_TICKET = graphql(`
  mutation AssignTicket($id: Int!, $teamId: Int, $assigneeId: Int, $expectedVersion: Int!) {
    assignTicket(id: $id, teamId: $teamId, assigneeId: $assigneeId, expectedVersion: $expectedVersion) {
      id
      updatedAt
      ...TicketAssignment_ticket
    }
  }
`);

/** What the last take or assignment ran into: another change that came first, or a refusal. */
type Outcome = { kind: 'conflict'; assigneeBefore: number | null; assigneeNow: number | null } | { kind: 'failed'; message: string };

interface TicketAssignmentProps {
  ticket: FragmentType<typeof TicketAssignment_ticket>;
  /** Loads the ticket page again (after a CONFLICT: the ticket as it is now). */
  reload: () => Promise<unknown>;
}

/**
 * Take and Assign on the ticket page. Both compare and set on the version shown: when someone else came
 * first, the server answers CONFLICT and the page says who has the ticket now and shows it as it is (reloaded), so
 * the agent decides again on what is true. Live changes by others arrive through the ticket's live event.
 */
export function TicketAssignment(props: TicketAssignmentProps) {
  const ticket = useFragment(TicketAssignment_ticket, props.ticket);
  const me = useSignedInUser();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [assigning, setAssigning] = useState(false);
  const panelId = useId();
  const assignButton = useRef<HTMLButtonElement>(null);
  const [take, { loading: taking }] = useMutation(TAKE_TICKET, {
    update(cache, { data }) {
      if (data) syncMyTickets(cache, data.takeTicket.id, true);
    },
  });

  const mayTake = !!ticket.team && ticket.team.memberIds.includes(me.id) && ticket.assigneeId !== me.id;

  async function failed(error: unknown) {
    const conflict = versionConflict(error);
    if (conflict) {
      setOutcome({ kind: 'conflict', assigneeBefore: ticket.assigneeId ?? null, assigneeNow: conflict.assigneeId });
      // The ticket as it is now (a ticket the viewer may no longer read turns the page into "Not found").
      await props.reload().catch(() => undefined);
    } else {
      setOutcome({ kind: 'failed', message: describeError(error).message });
    }
  }

  async function takeIt() {
    setOutcome(null);
    try {
      await take({ variables: { id: ticket.id, expectedVersion: ticket.version } });
    } catch (error) {
      await failed(error);
    }
  }

  // The name of whoever has the ticket after a conflict: the reloaded ticket's assignee.
  const holder = outcome?.kind === 'conflict' && ticket.assignee?.id === outcome.assigneeNow ? ticket.assignee.username : null;

  return (
    <div className="ticket-assignment">
      <div className="ticket-assignment-actions">
        {mayTake && (
          <button type="button" className="button button-primary" onClick={takeIt} disabled={taking}>
            {taking ? 'Taking…' : 'Take'}
          </button>
        )}
        <button
          ref={assignButton}
          type="button"
          className="button button-secondary"
          aria-expanded={assigning}
          aria-controls={assigning ? panelId : undefined}
          onClick={() => setAssigning((open) => !open)}
        >
          Assign…
        </button>
      </div>
      <div role="status" className="ticket-assignment-status">
        {outcome?.kind === 'conflict' && (
          <p className="form-error">{conflictText(outcome, holder, me.id)} The ticket is shown as it is now: take or assign it again if you still want to.</p>
        )}
      </div>
      {outcome?.kind === 'failed' && (
        <p className="form-error" role="alert">
          {outcome.message}
        </p>
      )}
      {assigning && (
        <AssignPanel
          id={panelId}
          ticketId={ticket.id}
          version={ticket.version}
          teamId={ticket.team?.id ?? null}
          assigneeId={ticket.assigneeId ?? null}
          onDone={() => {
            // Back to the button that opened the form (the form leaves the page).
            setAssigning(false);
            assignButton.current?.focus();
          }}
          onStart={() => setOutcome(null)}
          onFailed={failed}
        />
      )}
    </div>
  );
}

function conflictText(outcome: Extract<Outcome, { kind: 'conflict' }>, holder: string | null, meId: number): string {
  if (outcome.assigneeNow === outcome.assigneeBefore) return 'Someone changed this ticket just now.';
  if (outcome.assigneeNow === null) return 'Someone unassigned this ticket just now.';
  if (outcome.assigneeNow === meId) return 'This ticket was given to you just now.';
  return `${holder ?? 'Another agent'} took this ticket just now.`;
}

interface AssignPanelProps {
  id: string;
  ticketId: number;
  version: number;
  teamId: number | null;
  assigneeId: number | null;
  onStart: () => void;
  onDone: () => void;
  onFailed: (error: unknown) => Promise<void>;
}

/** The team and member to give the ticket to; its choices load when opened. */
function AssignPanel(props: AssignPanelProps) {
  const { options, error, refetch } = useAssignmentOptions();
  return (
    <div className="ticket-assign-panel" id={props.id}>
      {options ? (
        <AssignForm {...props} options={options} />
      ) : error ? (
        <p className="form-error" role="alert">
          The teams could not be loaded.{' '}
          <button type="button" className="button button-secondary" onClick={() => void refetch()}>
            Try again
          </button>
        </p>
      ) : (
        <p role="status">Loading…</p>
      )}
    </div>
  );
}

const NO_TEAM = '';
const UNASSIGNED = '';

function AssignForm({ options, ...props }: AssignPanelProps & { options: AssignmentOptions }) {
  const me = useSignedInUser();
  const navigate = useNavigate();
  const client = useApolloClient();
  const [teamId, setTeamId] = useState(props.teamId === null ? NO_TEAM : String(props.teamId));
  const [assigneeId, setAssigneeId] = useState(props.assigneeId === null ? UNASSIGNED : String(props.assigneeId));
  const [assign, { loading }] = useMutation(ASSIGN_TICKET, {
    update(cache, { data }) {
      if (data) syncMyTickets(cache, data.assignTicket.id, Number(assigneeId) === me.id);
    },
  });
  const team = options.teams.find((t) => String(t.id) === teamId) ?? null;
  // In a team: its members (the viewer first) or nobody; without a team: any agent (the ticket is theirs alone).
  const choices = team
    ? [...(team.memberIds.includes(me.id) ? [{ id: me.id, label: `Me (${me.username})` }] : []), ...memberChoices(team, options.names, me.id)]
    : [{ id: me.id, label: `Me (${me.username})` }, ...[...options.names].filter(([id]) => id !== me.id).map(([id, label]) => ({ id, label }))];
  const valid = !!team || assigneeId !== UNASSIGNED;

  function chooseTeam(value: string) {
    setTeamId(value);
    const next = options.teams.find((t) => String(t.id) === value) ?? null;
    if (next && assigneeId !== UNASSIGNED && !next.memberIds.includes(Number(assigneeId))) setAssigneeId(UNASSIGNED);
    if (!next && assigneeId === UNASSIGNED) setAssigneeId(String(me.id));
  }

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!valid) return;
    props.onStart();
    const target = { teamId: team?.id ?? null, assigneeId: assigneeId === UNASSIGNED ? null : Number(assigneeId) };
    // Given away to a team the viewer is not in (and not to them): they may not read it any more. The page leaves
    // first; the live event that takes it away is then applied without the open page fetching it again.
    const keeps = me.role === 'ADMIN' || target.assigneeId === me.id || (!!team && team.memberIds.includes(me.id));
    const variables = { id: props.ticketId, ...target, expectedVersion: props.version };
    try {
      if (keeps) {
        await assign({ variables });
        props.onDone();
      } else {
        await deletingTicket(props.ticketId, async () => {
          await assign({ variables });
          await navigate('/view/tickets/all');
          removeTicketFromList(client.cache, props.ticketId, { evict: true });
        });
      }
    } catch (error) {
      await props.onFailed(error);
    }
  }

  return (
    <form className="form ticket-assign-form" onSubmit={submit} aria-label="Assign ticket">
      <div className="field">
        <label htmlFor={`${props.id}-team`}>Team</label>
        <select id={`${props.id}-team`} value={teamId} onChange={(e) => chooseTeam(e.target.value)}>
          <option value={NO_TEAM}>No team (private)</option>
          {options.teams.map((option) => (
            <option key={option.id} value={option.id}>
              {option.name}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${props.id}-assignee`}>Assign to</label>
        <select id={`${props.id}-assignee`} value={assigneeId} onChange={(e) => setAssigneeId(e.target.value)}>
          {team && <option value={UNASSIGNED}>Unassigned</option>}
          {!team && assigneeId === UNASSIGNED && <option value={UNASSIGNED}>Choose an agent</option>}
          {choices.map((choice) => (
            <option key={choice.id} value={choice.id}>
              {choice.label}
            </option>
          ))}
        </select>
      </div>
      <div className="form-actions">
        <button type="button" className="button button-secondary" onClick={props.onDone}>
          Cancel
        </button>
        <button type="submit" className="button button-primary" disabled={loading || !valid}>
          {loading ? 'Assigning…' : 'Assign'}
        </button>
      </div>
    </form>
  );
}
