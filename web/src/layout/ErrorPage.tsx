import { useRouteError } from 'react-router-dom';
import { Brand } from './Brand';
import { RouteErrorPanel } from './RouteError';
import './shell.css';
import './errors.css';

/**
 * The root errorElement: only for an error of the shell itself (every screen's error renders inside the shell,
 * see RouteError). There is no session here, so the header holds the brand alone.
 */
export default function ErrorPage() {
  const error = useRouteError();
  console.error(error);
  return (
    <div className="app">
      <header className="topbar">
        <Brand />
      </header>
      <main className="main">
        <RouteErrorPanel error={error} />
      </main>
    </div>
  );
}
