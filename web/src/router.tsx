import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import Root from './routes/Root';
import RouteError from './routes/RouteError';

/** Loads a route module on first visit: every screen is its own chunk (see SPEC section 2 for the table). */
const screen = (load: () => Promise<{ default: React.ComponentType }>): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => ({ Component: (await load()).default }),
});

export const routes: RouteObject[] = [
  {
    path: '/',
    element: <Root />,
    errorElement: <RouteError />,
    // The shell renders nothing until the session has loaded, so there is nothing to show while route code loads.
    HydrateFallback: () => null,
    children: [
      { index: true, ...screen(() => import('./routes/Landing')) },
      { path: 'login', ...screen(() => import('./routes/LoginPage')) },
      { path: 'signup', ...screen(() => import('./routes/SignupPage')) },
      { path: 'create/ticket', ...screen(() => import('./routes/CreateTicket')) },
      { path: 'edit/ticket/:ticketId', ...screen(() => import('./routes/EditTicket')) },
      { path: 'view/ticket/:ticketId', ...screen(() => import('./routes/ViewTicket')) },
      { path: 'view/tickets/all', ...screen(() => import('./routes/Dashboard')) },
      { path: 'customer/create', ...screen(() => import('./routes/CreateCustomerPage')) },
      { path: 'macro/create', ...screen(() => import('./routes/CreateMacroPage')) },
      { path: 'view/customers', ...screen(() => import('./routes/Customers')) },
      { path: 'view/macros', ...screen(() => import('./routes/Macros')) },
      { path: 'message/center', ...screen(() => import('./routes/MessageCenterPage')) },
    ],
  },
];

export const router = createBrowserRouter(routes);
