import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import ErrorPage from './layout/ErrorPage';
import { loadChunk } from './layout/loadChunk';
import RootLayout, { StartLoading } from './layout/RootLayout';
import { NotFoundPage, RouteError } from './layout/RouteError';
import SignedInLayout from './layout/SignedInLayout';

/**
 * Loads a route module on first visit: every screen is its own chunk (see SPEC section 2 for the table). A tab older
 * than the server's build reloads once instead of failing (layout/loadChunk.ts).
 */
const screen = (load: () => Promise<{ default: React.ComponentType }>): Pick<RouteObject, 'lazy'> => ({
  // The app loads again at the address being navigated to (the router moves the address only once the code is in).
  lazy: async () => ({ Component: (await loadChunk(load, () => router.state.navigation.location)).default }),
});

/**
 * The route table. Route modules are `<feature>/XxxPage.tsx`; the shell (`RootLayout`) wraps everything, and the
 * pathless `SignedInLayout` wraps every workspace screen (signed out, it shows the way in instead). A pathless route
 * between them catches every screen's error (RouteError) and holds the catch-all 404, so both render inside the
 * shell, header and menu kept; the root errorElement is left for an error of the shell itself.
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <RootLayout />,
    errorElement: <ErrorPage />,
    // The first screen's code is loading: nothing, then a quiet "Loading…" if it takes a while.
    HydrateFallback: StartLoading,
    children: [
      {
        errorElement: <RouteError />,
        children: [
          { index: true, ...screen(() => import('./landing/LandingPage')) },
          { path: 'login', ...screen(() => import('./session/LoginPage')) },
          { path: 'signup', ...screen(() => import('./session/SignupPage')) },
          {
            element: <SignedInLayout />,
            children: [
              { path: 'create/ticket', ...screen(() => import('./tickets/CreateTicketPage')) },
              { path: 'edit/ticket/:ticketId', ...screen(() => import('./tickets/EditTicketPage')) },
              { path: 'view/ticket/:ticketId', ...screen(() => import('./tickets/ViewTicketPage')) },
              { path: 'view/tickets/all', ...screen(() => import('./tickets/DashboardPage')) },
              { path: 'customer/create', ...screen(() => import('./customers/CreateCustomerPage')) },
              { path: 'macro/create', ...screen(() => import('./macros/CreateMacroPage')) },
              { path: 'view/customers', ...screen(() => import('./customers/CustomersPage')) },
              { path: 'view/macros', ...screen(() => import('./macros/MacrosPage')) },
              { path: 'message/center', ...screen(() => import('./messages/MessageCenterPage')) },
              { path: 'reports', ...screen(() => import('./reports/ReportsPage')) },
              { path: 'settings/api-tokens', ...screen(() => import('./apiTokens/ApiTokensPage')) },
              { path: 'settings/webhooks', ...screen(() => import('./webhooks/WebhooksPage')) },
              { path: 'settings/webhooks/:webhookId', ...screen(() => import('./webhooks/WebhookPage')) },
              { path: 'admin', ...screen(() => import('./admin/AdminPage')) },
            ],
          },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];

export const router = createBrowserRouter(routes);
