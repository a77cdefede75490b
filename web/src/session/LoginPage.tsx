import { Link, Navigate } from 'react-router-dom';
import { LoginForm } from './LoginForm';
import { useSession } from './session';

/** login: redirects to / when already signed in (including right after logging in here). */
export default function LoginPage() {
  const me = useSession();
  if (me) return <Navigate to="/" replace />;
  return (
    <section className="page page-narrow card auth-page">
      <header className="page-header">
        <h1>Log In</h1>
        <p className="page-subtitle">Welcome back to your workspace.</p>
      </header>
      <LoginForm to="/" />
      <p className="modal-switch">
        New here? <Link to="/signup">Sign Up</Link>
      </p>
    </section>
  );
}
