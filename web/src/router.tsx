import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import ErrorPage from './layout/ErrorPage';
import RootLayout from './layout/RootLayout';
import SignedInLayout from './layout/SignedInLayout';

/** Loads a route module on first visit: every screen is its own chunk (see SPEC section 2 for the table). */
const screen = (load: () => Promise<{ default: React.ComponentType }>): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => ({ Component: (await load()).default }),
});

/**
 * The route table. Route modules are `<feature>/XxxPage.tsx`; the shell (`RootLayout`) wraps everything, and the
 * pathless `SignedInLayout` wraps every workspace screen (signed out, it shows the way in instead).
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <RootLayout />,
    errorElement: <ErrorPage />,
    // The shell renders nothing until the session has loaded, so there is nothing to show while route code loads.
    HydrateFallback: () => null,
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
          { path: 'settings/api-tokens', ...screen(() => import('./apiTokens/ApiTokensPage')) },
          { path: 'settings/webhooks', ...screen(() => import('./webhooks/WebhooksPage')) },
          { path: 'settings/webhooks/:webhookId', ...screen(() => import('./webhooks/WebhookPage')) },
        ],
      },
    ],
  },
];

export const router = createBrowserRouter(routes);
