import { useApolloClient, useMutation, useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { isGone, routeId } from '../apollo/errors';
import { deletingTicket, removeTicketFromList } from '../apollo/lists';
import { ConfirmModal } from '../ui/ConfirmModal';
import { TicketDetail } from './TicketDetail';
import { TicketStatusControl } from './TicketStatusControl';
import { TicketAssignment } from './TicketAssignment';
import { FILTER_PARAM, filterFromParam, paramOfFilter, type TimelineFilterValue } from './timeline/entries';
import { TicketTimeline } from './timeline/TicketTimeline';
import { graphql } from '../gql';
import { LoadFailed, PageLoading } from '../ui/PageStates';
import { NotFoundPanel } from '../ui/NotFoundPanel';
import './tickets.css';

const VIEW_TICKET_PAGE = graphql(`
  query ViewTicketPage($id: Int!, $timelineFilter: TimelineFilter!) {
    ticket(id: $id) {
      id
      ...TicketDetail_ticket
      ...TicketStatusControl_ticket
      ...TicketAssignment_ticket
      ...TicketTimeline_ticket
      timeline(first: 50, filter: $timelineFilter) {
        nodes {
          __typename
          ...TimelineEntry_note
          ...TimelineEntry_change
          ...TimelineEntry_reply
          ...TimelineEntry_requesterMessage
        }
        pageInfo {
          endCursor
          hasNextPage
        }
      }
    }
  }
`);

const DELETE_TICKET = graphql(`
  mutation DeleteTicket($id: Int!) {
    deleteTicket(id: $id)
  }
`);

function ViewTicketScreen({ id }: { id: number }) {
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const client = useApolloClient();
  // The timeline's filter lives in the address (`?timeline=notes`): shareable, and the back button returns to it.
  const [params, setParams] = useSearchParams();
  const timelineFilter = filterFromParam(params.get(FILTER_PARAM));
  // Cache first, then the network: the timeline is live only while its page is open, so a list cached on an earlier
  // visit (or for another filter) is brought up to date on every visit (apollo/cache.ts merges it by seq).
  const {
    data: current,
    previousData,
    loading,
    error,
    refetch,
  } = useQuery(VIEW_TICKET_PAGE, {
    variables: { id, timelineFilter },
    fetchPolicy: 'cache-and-network',
    nextFetchPolicy: 'cache-first',
  });
  // Another filter's first page is loading: the page stays as it was (its timeline busy) rather than blank.
  const data = current ?? (previousData?.ticket.id === id ? previousData : undefined);
  function setTimelineFilter(filter: TimelineFilterValue) {
    setParams(
      (before) => {
        const next = new URLSearchParams(before);
        const value = paramOfFilter(filter);
        if (value) next.set(FILTER_PARAM, value);
        else next.delete(FILTER_PARAM);
        return next;
      },
      { preventScrollReset: true },
    );
  }
  const [deleteTicket] = useMutation(DELETE_TICKET, {
    update(cache, { data: result }) {
      if (result) removeTicketFromList(cache, result.deleteTicket, { evict: false });
    },
  });

  if (isGone(error)) return <NotFoundPanel what="ticket" />;
  if (!data) return error ? <LoadFailed what="ticket" error={error} retry={refetch} /> : <PageLoading />;

  return (
    <section className="page card">
      <header className="page-header page-header-row">
        <div>
          <p className="eyebrow">Ticket #{id}</p>
          <h1>Ticket Details</h1>
        </div>
        <div className="header-actions">
          <Link className="button button-secondary" to={`/edit/ticket/${id}`}>
            Edit
          </Link>
          <button type="button" className="button button-danger" onClick={() => setConfirming(true)}>
            Delete
          </button>
        </div>
      </header>
      <TicketStatusControl ticket={data.ticket} />
      <TicketAssignment ticket={data.ticket} reload={refetch} />
      <TicketDetail ticket={data.ticket} />
      {/* Keyed by ticket: its seqs, drafts and edit state belong to one ticket. */}
      <TicketTimeline
        key={id}
        ticketId={id}
        ticket={data.ticket}
        timeline={data.ticket.timeline}
        filter={timelineFilter}
        onFilter={setTimelineFilter}
        loading={loading && !current}
      />
      {confirming && (
        <ConfirmModal
          title="Delete Ticket"
          question="Are you sure you would like to delete this ticket?"
          confirmLabel="Delete Ticket"
          onClose={() => setConfirming(false)}
          onConfirm={() =>
            // The live event of this delete leaves Ticket:{id} to this screen (see apollo/lists.ts).
            deletingTicket(id, async () => {
              await deleteTicket({ variables: { id } });
              // Leave first, then drop Ticket:{id}: evicting it while this screen still watches it would re-query it.
              await navigate('/view/tickets/all');
              client.cache.evict({ id: client.cache.identify({ __typename: 'Ticket', id }) });
              client.cache.gc();
            })
          }
        />
      )}
    </section>
  );
}

export default function ViewTicketPage() {
  const id = routeId(useParams().ticketId);
  return id ? <ViewTicketScreen id={id} /> : <NotFoundPanel what="ticket" />;
}
