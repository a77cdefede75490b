import { useQuery } from '@apollo/client/react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { TicketRow } from './TicketRow';
import { graphql } from '../gql';

export const PAGE_SIZE = 50;

const DASHBOARD_PAGE = graphql(`
  query DashboardPage($first: Int!, $after: String) {
    tickets(first: $first, after: $after) {
      totalCount
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

/** view/tickets/all: "Dashboard", "(n) Open Tickets" (n is every ticket, not just this page). */
export default function DashboardPage() {
  const { data, error, fetchMore } = useQuery(DASHBOARD_PAGE, { variables: { first: PAGE_SIZE } });
  const [loadingMore, setLoadingMore] = useState(false);
  useEffect(() => {
    if (error) console.error('Failed to fetch tickets', error);
  }, [error]);
  if (!data) return null;
  const { totalCount, nodes, pageInfo } = data.tickets;

  async function loadMore() {
    setLoadingMore(true);
    try {
      // The typePolicy for Query.tickets appends the page to the one cached list.
      await fetchMore({ variables: { after: pageInfo.endCursor } });
    } catch (error) {
      console.error('Failed to fetch tickets', error);
    } finally {
      setLoadingMore(false);
    }
  }

  return (
    <section className="page">
      <header className="page-header page-header-row">
        <div>
          <h1>Dashboard</h1>
          <h2 className="page-count">({totalCount}) Open Tickets</h2>
        </div>
        <Link className="button button-primary" to="/create/ticket">Create Ticket</Link>
      </header>
      {nodes.length === 0 ? (
        <div className="card empty-state">
          <p>No open tickets. Enjoy the balance, or create one.</p>
        </div>
      ) : (
        <div className="card table-card">
          <table className="ticket-table">
            <thead>
              <tr>
                <th scope="col">Id</th>
                <th scope="col">Subject</th>
                <th scope="col">Requester</th>
                <th scope="col">Type</th>
                <th scope="col">Priority</th>
                <th scope="col">Image</th>
              </tr>
            </thead>
            <tbody>
              {nodes.map((ticket) => (
                <TicketRow key={ticket.id} ticket={ticket} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pageInfo.hasNextPage && (
        <div className="load-more">
          <button type="button" className="button button-secondary" onClick={loadMore} disabled={loadingMore}>
            {loadingMore ? 'Loading...' : 'Load more'}
          </button>
        </div>
      )}
    </section>
  );
}
