import { useQuery, useReactiveVar } from '@apollo/client/react';
import { Outlet, ScrollRestoration } from 'react-router-dom';
import { Header } from './Header';
import { ModalHost } from './ModalHost';
import { NavBar } from './NavBar';
import { LiveUpdates } from '../live/LiveUpdates';
import { sessionSwitchingVar } from '../live/session';
import { ROOT_QUERY, SessionContext } from '../session/session';

/**
 * The root shell: loads the session first, then shows the header, the navigation bar and the page. A signed-in
 * agent also gets the live connection (not while a login or logout is switching the session).
 */
export default function RootLayout() {
  const { data, error } = useQuery(ROOT_QUERY);
  const switching = useReactiveVar(sessionSwitchingVar);
  if (!data) {
    if (error) {
      return (
        <div className="page page-narrow">
          <p className="form-error" role="alert">
            Something went wrong. Please try again
          </p>
        </div>
      );
    }
    return null;
  }
  return (
    <SessionContext.Provider value={data.me ?? null}>
      <ModalHost>
        <div className="app">
          <Header />
          <NavBar />
          <main className="main">
            <Outlet />
          </main>
        </div>
        {data.me && !switching && <LiveUpdates key={data.me.id} me={data.me} />}
      </ModalHost>
      <ScrollRestoration />
    </SessionContext.Provider>
  );
}
