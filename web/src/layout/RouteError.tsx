import { isRouteErrorResponse, Link, useLocation, useRouteError } from 'react-router-dom';
import { useSession } from '../app/session';
import { ChunkLoadError } from './loadChunk';
import '../ui/forms.css';
import './errors.css';

/** What went wrong with a screen, in words for the agent: never the raw error (that goes to the console). */
export function routeErrorText(error: unknown): { title: string; detail: string } {
  if (error instanceof ChunkLoadError) {
    switch (error.problem) {
      case 'offline':
        return {
          title: 'You are offline',
          detail: 'This screen could not be loaded: this device has no network connection. Reconnect, then reload the page.',
        };
      case 'unreachable':
        return {
          title: 'The server could not be reached',
          detail: 'This screen could not be loaded: the server did not answer. Check your connection, or wait a moment, then reload the page.',
        };
      case 'stale':
        return {
          title: 'This screen could not be loaded',
          detail:
            'Fulcrum may have been updated since this page was opened, and reloading once did not help. Reload the page; if it keeps happening, tell your administrator.',
        };
    }
  }
  return {
    title: 'Something went wrong on this screen',
    detail: 'The screen stopped because of an unexpected error. Reload the page; if it happens again, tell your administrator.',
  };
}

/** A screen's error as the agent sees it: what happened, what to do, and a reload. */
export function RouteErrorPanel({ error }: { error: unknown }) {
  const { title, detail } = routeErrorText(error);
  return (
    <section className="page page-narrow card error-page" role="alert">
      <h1>{title}</h1>
      <p>{detail}</p>
      <div className="form-actions">
        <ReloadButton />
      </div>
    </section>
  );
}

/** The reload every screen error offers: a fresh copy of the app (and of the screen's code). */
export function ReloadButton() {
  return (
    <button type="button" className="button button-primary" onClick={() => window.location.reload()}>
      Reload
    </button>
  );
}

/**
 * The errorElement of every screen (router.tsx): shown inside the shell, so the header and the menu stay. A 404
 * from the router itself cannot reach here (the catch-all route renders NotFoundPage), but is handled anyway.
 */
export function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  console.error(error);
  return <RouteErrorPanel error={error} />;
}

/** Unknown routes (SPEC section 2: "Unexpected Application Error!" and 404 "No route matches URL"), in the shell. */
export function NotFoundPage() {
  const { pathname } = useLocation();
  const me = useSession();
  return (
    <section className="page page-narrow card error-page" role="alert">
      <h1>Unexpected Application Error!</h1>
      <h2>404 Not Found</h2>
      <p>No route matches URL "{pathname}"</p>
      <p>Check the address, or use the menu to find the screen.</p>
      <div className="form-actions">
        <Link className="button button-primary" to={me ? '/view/tickets/all' : '/'}>
          {me ? 'Back to the dashboard' : 'Back to the start'}
        </Link>
      </div>
    </section>
  );
}
