import { Link } from 'react-router-dom';

/** A record that does not exist (or is not yours): the route exists, the thing does not. */
export function NotFoundPanel({ what }: { what: string }) {
  return (
    <section className="page page-narrow card" role="alert">
      <h1>Not found</h1>
      <p>This {what} does not exist, or it is not yours.</p>
      <Link className="button button-primary" to="/view/tickets/all">
        Back to the dashboard
      </Link>
    </section>
  );
}
