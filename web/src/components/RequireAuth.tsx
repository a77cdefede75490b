import type { ReactNode } from 'react';
import { useDemoLogin } from '../auth';
import { useSession } from '../session';
import { useModals } from './ModalHost';

/** Workspace screens need a session; signed-out visitors get a way in instead of an error. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const me = useSession();
  const { openModal } = useModals();
  const demoLogin = useDemoLogin();
  if (me) return <>{children}</>;
  return (
    <section className="page page-narrow card signin-prompt">
      <h1>Sign in to continue</h1>
      <p>This part of the workspace is for signed-in agents.</p>
      <div className="form-actions">
        <button type="button" className="button button-primary" onClick={() => openModal('login')}>Log In</button>
        <button type="button" className="button button-secondary" onClick={() => void demoLogin()}>Demo Login</button>
      </div>
    </section>
  );
}
