import { useQuery, useReactiveVar } from '@apollo/client/react';
import { Outlet, ScrollRestoration, useNavigation } from 'react-router-dom';
import { Brand } from './Brand';
import { Header } from './Header';
import { ModalHost } from './ModalHost';
import { NavBar } from './NavBar';
import { LoadFailed, useDelayed } from '../ui/PageStates';
import { LiveUpdates } from '../live/LiveUpdates';
import { sessionSwitchingVar } from '../live/session';
import { ROOT_QUERY, SessionContext } from '../app/session';
import '../ui/PageStates.css';
import './shell.css';

/**
 * Before the session is known there is no menu to show: the header holds the brand alone. `children` is the
 * page-sized part (the start's "Loading…" or why the start failed).
 */
function BareShell({ children }: { children: React.ReactNode }) {
  return (
    <div className="app">
      <header className="topbar">
        <Brand />
      </header>
      <main className="main">{children}</main>
    </div>
  );
}

/**
 * The start (session and first screen's code loading): nothing for a moment, then the brand and a quiet
 * "Loading…", so a slow network does not look like a broken app.
 */
export function StartLoading() {
  const slow = useDelayed();
  return (
    <div className="app">
      {slow && (
        <header className="topbar">
          <Brand />
        </header>
      )}
      <main className="main">
        <p className="page-loading" role="status">
          {slow ? 'Loading…' : ''}
        </p>
      </main>
    </div>
  );
}

/**
 * Code of the next screen on its way (React Router keeps the current one meanwhile): "Loading…" after a moment. The
 * region is there only during such a navigation (empty at first, so the text is announced when it appears), so an
 * idle shell has one status region, the live connection's.
 */
function NavigationStatus() {
  const navigation = useNavigation();
  return navigation.state === 'loading' ? <PendingNavigation /> : null;
}

function PendingNavigation() {
  const slow = useDelayed();
  return (
    <p className="navigation-status" role="status">
      {slow ? 'Loading…' : ''}
    </p>
  );
}

/**
 * The root shell: loads the session first, then shows the header, the navigation bar and the page. A signed-in
 * agent also gets the live connection (not while a login or logout is switching the session). When the session
 * cannot be loaded (server down, a proxy answering 502), the brand stays and the page says why, with a retry.
 */
export default function RootLayout() {
  const { data, error, refetch } = useQuery(ROOT_QUERY, { notifyOnNetworkStatusChange: true });
  const switching = useReactiveVar(sessionSwitchingVar);
  if (!data) {
    if (error) {
      return (
        <BareShell>
          <LoadFailed what="workspace" error={error} retry={refetch} />
        </BareShell>
      );
    }
    return <StartLoading />;
  }
  return (
    <SessionContext.Provider value={data.me ?? null}>
      <ModalHost>
        <div className="app">
          <Header />
          <NavBar />
          <main className="main">
            <NavigationStatus />
            <Outlet />
          </main>
        </div>
        {data.me && !switching && <LiveUpdates key={data.me.id} me={data.me} />}
      </ModalHost>
      <ScrollRestoration />
    </SessionContext.Provider>
  );
}
