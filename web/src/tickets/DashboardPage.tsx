import { useQuery } from '@apollo/client/react';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { LIMITS, MESSAGES } from '@fulcrum/schema/validation';
import { TicketRow } from './TicketRow';
import { MY_TICKETS_VIEW_ID, ViewSidebar } from './ViewSidebar';
import { SaveViewForm } from './SaveViewForm';
import { LoadFailed, LoadFailedNotice, PageLoading } from '../ui/PageStates';
import { loadProblem, problemText } from '../apollo/errors';
import { graphql } from '../gql';
import { STATUS_LABELS } from '../ui/Badges';
import {
  DEFAULT_STATUSES,
  ORDERS,
  PRIORITIES,
  STATUSES,
  TYPES,
  isDefaultState,
  toVariables,
  toggle,
  useDashboardState,
  useSelectedView,
} from './dashboardFilters';
import '../ui/table.css';
import '../ui/LoadMore.css';
import './tickets.css';

const PAGE_SIZE = 50;
/** Typing settles this long before the list follows. */
const SEARCH_DEBOUNCE_MS = 300;

const DASHBOARD_PAGE = graphql(`
  query DashboardPage($first: Int!, $after: String, $filter: TicketFilter, $orderBy: TicketOrder, $viewId: Int) {
    views {
      id
      name
      count
      scope
      team {
        id
        name
      }
      filter {
        priority
        requesterId
        search
        status
        type
      }
      ...ViewSidebar_view
    }
    tickets(first: $first, after: $after, filter: $filter, orderBy: $orderBy, viewId: $viewId) {
      totalCount
      statusCounts {
        open
        pending
        solved
      }
      nodes {
        id
        ...TicketRow_ticket
      }
      pageInfo {
        endCursor
        hasNextPage
      }
    }
  }
`);

/**
 * view/tickets/all: "Dashboard", "(n) Open Tickets" (the unsolved ones, every page), a search box and filter chips
 * whose state is the URL, and the count of each status under the rest of the filter.
 */
export default function DashboardPage() {
  const [state, update] = useDashboardState();
  const viewId = useSelectedView();
  // The list's own address: each ticket opened from it keeps it (Next, Previous and Back to the list follow it).
  const [listParams] = useSearchParams();
  const from = listParams.toString();
  const variables = { first: PAGE_SIZE, ...toVariables(state, viewId), viewId };
  const { data, previousData, error, fetchMore, loading, refetch } = useQuery(DASHBOARD_PAGE, { variables });
  const [loadingMore, setLoadingMore] = useState(false);
  const [loadMoreFailed, setLoadMoreFailed] = useState<string | null>(null);
  const searchBox = useRef<HTMLInputElement>(null);
  const [text, setText] = useState(state.search);
  const typed = useRef(false);

  useEffect(() => {
    if (error) console.error('Failed to fetch tickets', error);
  }, [error]);

  // The URL changed without typing (Back, a shared link, "Clear filters"): the box shows it.
  useEffect(() => {
    if (!typed.current) setText(state.search);
  }, [state.search]);

  // Typing is debounced into the URL.
  useEffect(() => {
    if (!typed.current) return;
    const timer = setTimeout(() => {
      typed.current = false;
      if (text !== state.search && text.length <= LIMITS.search.max) update({ search: text }, { typing: true });
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, state.search, update]);

  // "/" anywhere but in a text field focuses the search box.
  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey) return;
      const target = event.target as HTMLElement | null;
      if (target && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))) return;
      event.preventDefault();
      searchBox.current?.focus();
    }
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  // A view's list follows its live count (live/viewCounts.ts): when the count no longer equals the list's total
  // (someone took, solved or added one of its tickets), the list is read again. Only without filters of the
  // page's own, where the two are the same number by definition (the server's `tickets(viewId)`).
  const selectedCount = data?.views.find((view) => view.id === viewId)?.count;
  const listTotal = data?.tickets.totalCount;
  const ownFilters = !isDefaultState(state);
  useEffect(() => {
    if (viewId == null || ownFilters || loading || selectedCount == null || listTotal == null || selectedCount === listTotal) return;
    refetch().catch((error: unknown) => console.warn('view refetch', error));
  }, [viewId, ownFilters, loading, selectedCount, listTotal, refetch]);
  // And its definition: a colleague who changes a shared view's filter, scope or team (it arrives whole, live) can
  // leave its count as it was with other tickets in it, so the list is read again when the shown view's definition
  // changes (not when the agent picks another view: that is a new query of its own).
  const selected = data?.views.find((view) => view.id === viewId);
  const definition = selected ? JSON.stringify([selected.scope, selected.team?.id ?? null, selected.filter]) : null;
  const shownDefinition = useRef<{ viewId: number | null; definition: string | null }>({ viewId: null, definition: null });
  useEffect(() => {
    const before = shownDefinition.current;
    shownDefinition.current = { viewId, definition };
    if (viewId == null || definition == null || before.viewId !== viewId || before.definition == null || before.definition === definition) return;
    refetch().catch((error: unknown) => console.warn('view refetch', error));
  }, [viewId, definition, refetch]);

  const shown = data ?? previousData;
  if (!shown) return error ? <LoadFailed what="tickets" error={error} retry={refetch} /> : <PageLoading />;
  // These filters' tickets could not be loaded (offline, server down): the rows and counts of the filters before
  // are not theirs, so neither is shown; the filters stay, with what happened and a retry where the rows go.
  const failed = !data && !!error;
  const { totalCount, statusCounts, nodes, pageInfo } = shown.tickets;
  const unfiltered = isDefaultState(state);
  const searching = !!state.search.trim();
  const tooLong = text.length > LIMITS.search.max;

  async function loadMore() {
    setLoadingMore(true);
    setLoadMoreFailed(null);
    try {
      // The typePolicy for Query.tickets appends the page to this filter's cached list.
      await fetchMore({ variables: { ...variables, after: pageInfo.endCursor } });
    } catch (error) {
      console.error('Failed to fetch tickets', error);
      setLoadMoreFailed(problemText(loadProblem(error), 'next tickets', error).detail);
    } finally {
      setLoadingMore(false);
    }
  }

  const counts: Record<string, number> = { OPEN: statusCounts.open, PENDING: statusCounts.pending, SOLVED: statusCounts.solved };
  const view = viewId == null ? null : shown.views.find((v) => v.id === viewId);
  // The viewer's teams: those of their default team views (ids below 1).
  const teams = shown.views.flatMap((v) => (v.id < 0 && v.scope === 'TEAM' && v.team ? [v.team] : []));
  const heading = view
    ? failed
      ? view.name
      : `(${totalCount}) ${view.name}`
    : failed
      ? unfiltered
        ? 'Open Tickets'
        : 'Matching Tickets'
      : unfiltered
        ? `(${totalCount}) Open Tickets`
        : `(${totalCount}) ${totalCount === 1 ? 'Matching Ticket' : 'Matching Tickets'}`;

  return (
    <section className="page dashboard-layout">
      <ViewSidebar views={shown.views} selected={viewId ?? MY_TICKETS_VIEW_ID} />
      <div>
        <header className="page-header page-header-row">
          <div>
            <h1>Dashboard</h1>
            <h2 className="page-count">{heading}</h2>
          </div>
          <Link className="button button-primary" to="/create/ticket">
            Create Ticket
          </Link>
        </header>

        <div className="card dashboard-filters" role="search" aria-label="Search and filter tickets">
          <div className="search-row">
            <label className="visually-hidden" htmlFor="ticket-search">
              Search tickets
            </label>
            <input
              id="ticket-search"
              ref={searchBox}
              type="search"
              className="search-input"
              placeholder="Search tickets: words, requester, #id   (press / to focus)"
              value={text}
              maxLength={LIMITS.search.max + 1}
              aria-describedby={tooLong ? 'ticket-search-error' : undefined}
              aria-invalid={tooLong || undefined}
              onChange={(event) => {
                typed.current = true;
                setText(event.target.value.slice(0, LIMITS.search.max + 1));
              }}
              onKeyDown={(event) => {
                if (event.key === 'Escape' && text) {
                  typed.current = true;
                  setText('');
                }
              }}
            />
            <label className="order-select">
              <span>Sort</span>
              <select value={state.order ?? (searching ? 'RELEVANCE' : 'NEWEST')} onChange={(event) => update({ order: event.target.value as never })}>
                {ORDERS.filter(([value]) => value !== 'RELEVANCE' || searching).map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            </label>
          </div>
          {tooLong && (
            <p id="ticket-search-error" className="field-error">
              {MESSAGES.searchLength}
            </p>
          )}
          <div className="chip-groups">
            <ChipGroup label="Status">
              {STATUSES.map((status) => (
                <Chip key={status} pressed={state.statuses.includes(status)} onClick={() => update({ statuses: toggle(state.statuses, status) })}>
                  {STATUS_LABELS[status]} {!failed && <span className="chip-count">({counts[status]})</span>}
                </Chip>
              ))}
            </ChipGroup>
            <ChipGroup label="Priority">
              {PRIORITIES.map((priority) => (
                <Chip key={priority} pressed={state.priorities.includes(priority)} onClick={() => update({ priorities: toggle(state.priorities, priority) })}>
                  {priority}
                </Chip>
              ))}
            </ChipGroup>
            <ChipGroup label="Type">
              {TYPES.map((type) => (
                <Chip key={type} pressed={state.types.includes(type)} onClick={() => update({ types: toggle(state.types, type) })}>
                  {type}
                </Chip>
              ))}
            </ChipGroup>
            {!unfiltered && (
              <button type="button" className="button button-link" onClick={() => clearFilters()}>
                Clear filters
              </button>
            )}
            {viewId == null && <SaveViewForm filter={variables.filter} teams={teams} />}
          </div>
        </div>

        <p className="visually-hidden" role="status">
          {loading ? 'Loading tickets' : failed ? '' : `${totalCount} ${totalCount === 1 ? 'ticket' : 'tickets'}`}
        </p>

        {failed ? (
          <LoadFailedNotice what="tickets for these filters" error={error} retry={refetch} />
        ) : nodes.length === 0 ? (
          <div className="card empty-state">
            {view && unfiltered ? (
              <p>No tickets in {view.name}.</p>
            ) : unfiltered ? (
              <p>No open tickets. Enjoy the balance, or create one.</p>
            ) : (
              <>
                <p>No tickets match {searching ? <>&ldquo;{state.search}&rdquo; with </> : null}these filters.</p>
                <button type="button" className="button button-secondary" onClick={() => clearFilters()}>
                  Clear filters
                </button>
              </>
            )}
          </div>
        ) : (
          <div className="card table-card ticket-table-card" aria-busy={loading || undefined}>
            <table className="data-table ticket-table">
              <thead>
                <tr>
                  <th scope="col">Id</th>
                  <th scope="col">Subject</th>
                  <th scope="col">Requester</th>
                  <th scope="col">Assignee</th>
                  <th scope="col">Team</th>
                  <th scope="col">Type</th>
                  <th scope="col">Priority</th>
                  <th scope="col">Image</th>
                </tr>
              </thead>
              <tbody>
                {nodes.map((ticket) => (
                  <TicketRow key={ticket.id} ticket={ticket} from={from} />
                ))}
              </tbody>
            </table>
          </div>
        )}
        {!failed && pageInfo.hasNextPage && (
          <div className="load-more">
            {loadMoreFailed && (
              <p className="form-error" role="alert">
                {loadMoreFailed}
              </p>
            )}
            <button type="button" className="button button-secondary" onClick={loadMore} disabled={loadingMore}>
              {loadingMore ? 'Loading...' : 'Load more'}
            </button>
          </div>
        )}
      </div>
    </section>
  );

  function clearFilters() {
    typed.current = false;
    setText('');
    update({ search: '', statuses: DEFAULT_STATUSES, priorities: [], types: [], order: null });
  }
}

function ChipGroup({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="chip-group" role="group" aria-label={label}>
      <span className="chip-group-label" aria-hidden="true">
        {label}
      </span>
      {children}
    </div>
  );
}

function Chip({ pressed, onClick, children }: { pressed: boolean; onClick: () => void; children: React.ReactNode }) {
  return (
    <button type="button" className="chip" aria-pressed={pressed} onClick={onClick}>
      {children}
    </button>
  );
}
