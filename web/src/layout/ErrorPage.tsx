import { useRouteError } from 'react-router-dom';
import { Brand } from './Brand';
import { ReloadButton, routeErrorText } from './RouteError';

/**
 * The root errorElement: only for an error of the shell itself (every screen's error renders inside the shell,
 * see RouteError). There is no session here, so the header holds the brand alone.
 */
export default function ErrorPage() {
  const error = useRouteError();
  console.error(error);
  const { title, detail } = routeErrorText(error);
  return (
    <div className="app">
      <header className="topbar">
        <Brand />
      </header>
      <main className="main">
        <section className="page page-narrow card error-page" role="alert">
          <h1>{title}</h1>
          <p>{detail}</p>
          <div className="form-actions">
            <ReloadButton />
          </div>
        </section>
      </main>
    </div>
  );
}
