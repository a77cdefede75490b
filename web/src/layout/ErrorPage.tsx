import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { Brand } from './Brand';

/** The root errorElement: unknown routes (404 "No route matches URL") and any error a screen throws. */
export default function ErrorPage() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const path = typeof window === 'undefined' ? '' : window.location.pathname;
  if (!notFound) console.error(error);
  return (
    <div className="app">
      <header className="topbar">
        {/* Outside the shell there is no session: the brand links to /. */}
        <Brand />
      </header>
      <main className="main">
        <section className="page page-narrow card error-page" role="alert">
          <h1>Unexpected Application Error!</h1>
          {notFound ? (
            <>
              <h2>404 Not Found</h2>
              <p>No route matches URL "{path}"</p>
            </>
          ) : (
            <p>{error instanceof Error ? error.message : 'Something went wrong. Please try again'}</p>
          )}
          <a className="button button-primary" href="/">
            Back to the start
          </a>
        </section>
      </main>
    </div>
  );
}
