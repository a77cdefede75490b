import { NavLink } from 'react-router-dom';
import { UnreadBadge } from '../live/unread';
import { useSession } from '../app/session';
import { useModals } from '../app/modals';
import './shell.css';

/** Signed-in agents only, and only at 1400 px and wider (CSS hides it below; the profile menu has the links then). */
export function NavBar() {
  const me = useSession();
  const { openModal } = useModals();
  if (!me) return null;
  return (
    <nav className="navbar" aria-label="Main">
      <NavLink to="/view/tickets/all" end>
        Dashboard
      </NavLink>
      <NavLink to="/create/ticket">Create Ticket</NavLink>
      <button type="button" onClick={() => openModal('createCustomer')}>
        Create Customer
      </button>
      <button type="button" onClick={() => openModal('createMacro')}>
        Create Macro
      </button>
      <NavLink to="/view/customers">Customers</NavLink>
      <NavLink to="/view/macros">Macros</NavLink>
      <NavLink to="/reports">Reports</NavLink>
      <button type="button" onClick={() => openModal('messageCenter')}>
        Message Center
        <UnreadBadge />
      </button>
      {me.role === 'ADMIN' && <NavLink to="/admin">Admin</NavLink>}
    </nav>
  );
}
