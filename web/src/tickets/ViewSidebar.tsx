import { Link } from 'react-router-dom';
import { graphql, useFragment, type FragmentType } from '../gql';
import './views.css';

export const ViewSidebar_view = graphql(`
  fragment ViewSidebar_view on TicketView {
    id
    name
    scope
    shared
    count
  }
`);

/** The view "My tickets" is the dashboard without a `view` parameter (the list the dashboard always had). */
export const MY_TICKETS_VIEW_ID = -1;

export function viewHref(id: number): string {
  return id === MY_TICKETS_VIEW_ID ? '/view/tickets/all' : `/view/tickets/all?view=${id}`;
}

/**
 * The dashboard's views: the defaults (My tickets, each team's Unassigned and unsolved) and the saved ones,
 * each with its count, kept live by the viewCountEvents subscription (live/viewCounts.ts writes into the cache).
 */
export function ViewSidebar(props: { views: FragmentType<typeof ViewSidebar_view>[]; selected: number }) {
  const views = useFragment(ViewSidebar_view, props.views);
  return (
    <nav className="view-sidebar card" aria-label="Views">
      <h2 className="view-sidebar-title">Views</h2>
      <ul>
        {views.map((view) => (
          <li key={view.id}>
            <Link to={viewHref(view.id)} className="view-link" aria-current={view.id === props.selected ? 'page' : undefined} data-view-id={view.id}>
              <span className="view-name">
                {view.name}
                {view.shared && <span className="visually-hidden"> (shared)</span>}
              </span>{' '}
              <span className="view-count" data-testid={`view-count-${view.id}`}>
                {view.count}
                <span className="visually-hidden"> {view.count === 1 ? 'ticket' : 'tickets'}</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
