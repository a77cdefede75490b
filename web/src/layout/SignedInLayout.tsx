import { Outlet } from 'react-router-dom';
import { useDemoLogin } from '../app/auth';
import { useSession } from '../app/session';
import { useModals } from '../app/modals';
import '../ui/forms.css';
import './errors.css';

/**
 * The one signed-in layout route (pathless, see router.tsx): every workspace screen below it needs a session.
 * Signed-out visitors get a way in instead of an error; the screens themselves never check the session.
 */
export default function SignedInLayout() {
  const me = useSession();
  const { openModal } = useModals();
  const demoLogin = useDemoLogin();
  if (me) return <Outlet />;
  return (
    <section className="page page-narrow card signin-prompt">
      <h1>Sign in to continue</h1>
      <p>This part of the workspace is for signed-in agents.</p>
      <div className="form-actions">
        <button type="button" className="button button-primary" onClick={() => openModal('login')}>
          Log In
        </button>
        <button type="button" className="button button-secondary" onClick={() => void demoLogin()}>
          Demo Login
        </button>
      </div>
    </section>
  );
}
