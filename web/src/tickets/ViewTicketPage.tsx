import { useApolloClient, useMutation, useQuery } from '@apollo/client/react';
import { useRef, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { isGone, routeId } from '../apollo/errors';
import { deletingTicket, removeTicketFromList } from '../apollo/cachedLists';
import { ConfirmModal } from '../ui/ConfirmModal';
import { TicketProperties } from './TicketProperties';
import { TicketRequest } from './TicketRequest';
import { FROM_PARAM, listHref, neighbours, ticketHref, useListIds } from './ticketNav';
import { useShortcutsSetting, useSingleKeyShortcuts } from './shortcuts';
import type { ComposerHandle } from './timeline/Composer';
import { FILTER_PARAM, filterFromParam, paramOfFilter, type TimelineFilterValue } from './timeline/entries';
import { TicketTimeline } from './timeline/TicketTimeline';
import { graphql } from '../gql';
import { LoadFailed, PageLoading } from '../ui/PageStates';
import { NotFoundPanel } from '../ui/NotFoundPanel';
import './tickets.css';
import './ticketPage.css';

const VIEW_TICKET_PAGE = graphql(`
  query ViewTicketPage($id: Int!, $timelineFilter: TimelineFilter!) {
    ticket(id: $id) {
      id
      subject
      description
      createdAt
      requester {
        id
        name
      }
      ...TicketDetail_ticket
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
  // The list the ticket was opened from (`?from=`): Previous, Next and Back to the list follow it.
  const from = params.get(FROM_PARAM);
  const listIds = useListIds(from, id);
  const near = listIds ? neighbours(listIds, id) : { previous: null, next: null };
  const backHref = listHref(from);
  const composer = useRef<ComposerHandle>(null);
  const [shortcutsOn, setShortcutsOn] = useShortcutsSetting();
  useSingleKeyShortcuts(shortcutsOn && !confirming, (key) => {
    if (key === 'j' && near.next !== null) void navigate(ticketHref(near.next, from));
    else if (key === 'k' && near.previous !== null) void navigate(ticketHref(near.previous, from));
    else if (key === 'r') composer.current?.focus('reply');
    else if (key === 'n') composer.current?.focus('note');
    else if (key === 'Escape') void navigate(backHref);
  });
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

  const ticket = data.ticket;
  return (
    <section className="page ticket-page">
      <div className="ticket-main">
        <header className="ticket-head">
          <nav className="ticket-nav" aria-label="Tickets">
            <Link to={backHref} className="ticket-nav-back" aria-keyshortcuts={shortcutsOn ? 'Escape' : undefined}>
              <span aria-hidden="true">←</span> Back to the list
            </Link>
            <span className="ticket-nav-steps">
              {near.previous !== null && (
                <Link to={ticketHref(near.previous, from)} aria-keyshortcuts={shortcutsOn ? 'k' : undefined}>
                  <span aria-hidden="true">‹</span> Previous ticket
                </Link>
              )}
              {near.next !== null && (
                <Link to={ticketHref(near.next, from)} aria-keyshortcuts={shortcutsOn ? 'j' : undefined}>
                  Next ticket <span aria-hidden="true">›</span>
                </Link>
              )}
            </span>
          </nav>
          <div className="ticket-title-row">
            <div className="ticket-title-block">
              <span className="ticket-number">#{id}</span>
              <h1 className="ticket-subject-heading">{ticket.subject}</h1>
            </div>
            <div className="header-actions">
              <Link className="button button-secondary button-small" to={`/edit/ticket/${id}`}>
                Edit
              </Link>
              <button type="button" className="button button-quiet-danger button-small" onClick={() => setConfirming(true)}>
                Delete
              </button>
            </div>
          </div>
        </header>
        <TicketRequest requester={ticket.requester.name} createdAt={ticket.createdAt} description={ticket.description} />
        {/* Keyed by ticket: its seqs, drafts and edit state belong to one ticket. */}
        <TicketTimeline
          key={id}
          ticketId={id}
          ticket={ticket}
          timeline={ticket.timeline}
          filter={timelineFilter}
          onFilter={setTimelineFilter}
          loading={loading && !current}
          composerHandle={composer}
        />
      </div>
      <div className="ticket-side-column">
        <TicketProperties ticket={ticket} reload={refetch} />
        <details className="shortcuts-setting">
          <summary>Keyboard shortcuts</summary>
          <p className="muted">
            <kbd>j</kbd> / <kbd>k</kbd> next / previous ticket, <kbd>r</kbd> reply, <kbd>n</kbd> note, <kbd>Esc</kbd> back to the list; in the composer{' '}
            <kbd>Ctrl</kbd>+<kbd>M</kbd> or <kbd>/</kbd> inserts a macro.
          </p>
          <label className="checkbox-row">
            <input type="checkbox" checked={shortcutsOn} onChange={(event) => setShortcutsOn(event.target.checked)} /> Single-key shortcuts
          </label>
        </details>
      </div>
      {confirming && (
        <ConfirmModal
          title="Delete Ticket"
          question="Are you sure you would like to delete this ticket?"
          confirmLabel="Delete Ticket"
          detail="The deletion is permanent: the ticket, its conversation and its history cannot be restored."
          onClose={() => setConfirming(false)}
          onConfirm={() =>
            // The live event of this delete leaves Ticket:{id} to this screen (see apollo/cachedLists.ts).
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
