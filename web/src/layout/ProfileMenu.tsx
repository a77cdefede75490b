import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { useLogout } from '../app/auth';
import { UnreadBadge } from '../live/unread';
import { useSession } from '../app/session';
import { BurgerIcon } from '../ui/Icons';
import { useModals } from '../app/modals';
import './shell.css';

/**
 * "Sign In" / "Menu" at 1310 px and wider, a burger icon below (the label stays for screen readers).
 * Closes on a click outside it, on Esc, and after choosing an item. Focus that was inside the dropdown goes back to
 * the menu button, so a modal opened from it (Log In, Sign Up) returns focus there when it closes.
 */
export function ProfileMenu() {
  const me = useSession();
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  const { openModal } = useModals();
  const logout = useLogout();

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: MouseEvent) => {
      if (ref.current && !ref.current.contains(event.target as Node)) setOpen(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      if (ref.current?.contains(document.activeElement)) buttonRef.current?.focus();
      setOpen(false);
    };
    document.addEventListener('mousedown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('mousedown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  const choose = (action: () => void) => () => {
    buttonRef.current?.focus();
    setOpen(false);
    action();
  };

  return (
    <div className="profile-menu" ref={ref}>
      <button
        ref={buttonRef}
        type="button"
        className="menu-button"
        aria-haspopup="true"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((value) => !value)}
      >
        <span className="menu-label">{me ? 'Menu' : 'Sign In'}</span>
        <BurgerIcon className="menu-burger" />
        {/* Below 1400 px the menu holds the message center link: the count shows on the button too. */}
        {me && <UnreadBadge className="unread-badge-menu" />}
      </button>
      {open && (
        <div className="menu-dropdown" id={menuId}>
          {me ? (
            <>
              <div className="menu-profile">
                <p className="menu-greeting">Hello, {me.username}</p>
                <p className="menu-detail">User id: {me.id}</p>
                <p className="menu-detail">{me.email}</p>
              </div>
              <nav className="menu-links" aria-label="Workspace">
                <Link to="/create/ticket" onClick={() => setOpen(false)}>
                  Create Ticket
                </Link>
                <Link to="/customer/create" onClick={() => setOpen(false)}>
                  Create Customer
                </Link>
                <Link to="/macro/create" onClick={() => setOpen(false)}>
                  Create Macro
                </Link>
                <Link to="/view/customers" onClick={() => setOpen(false)}>
                  Customers
                </Link>
                <Link to="/view/macros" onClick={() => setOpen(false)}>
                  Macros
                </Link>
                <Link to="/reports" onClick={() => setOpen(false)}>
                  Reports
                </Link>
                <Link to="/message/center" onClick={() => setOpen(false)}>
                  Message Center
                  <UnreadBadge />
                </Link>
              </nav>
              <nav className="menu-links menu-account" aria-label="Account">
                <Link to="/settings/api-tokens" onClick={() => setOpen(false)}>
                  API Tokens
                </Link>
                <Link to="/settings/webhooks" onClick={() => setOpen(false)}>
                  Webhooks
                </Link>
                {me.role === 'ADMIN' && (
                  <Link to="/admin" onClick={() => setOpen(false)}>
                    Admin
                  </Link>
                )}
              </nav>
              <button type="button" className="button button-secondary menu-logout" onClick={choose(() => void logout())}>
                Log Out
              </button>
            </>
          ) : (
            <div className="menu-actions">
              <button type="button" className="button button-primary" onClick={choose(() => openModal('login'))}>
                Log In
              </button>
              <button type="button" className="button button-secondary" onClick={choose(() => openModal('signup'))}>
                Sign Up
              </button>
            </div>
          )}
        </div>
      )}
    </div>
  );
}
