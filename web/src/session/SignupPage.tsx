import { Link, Navigate } from 'react-router-dom';
import { SignupForm } from './SignupForm';
import { useSession } from './session';

/** signup: redirects to / when already signed in. */
export default function SignupPage() {
  const me = useSession();
  if (me) return <Navigate to="/" replace />;
  return (
    <section className="page page-narrow card auth-page">
      <header className="page-header">
        <h1>Sign Up</h1>
        <p className="page-subtitle">Create your agent account.</p>
      </header>
      <SignupForm variant="page" to="/" />
      <p className="modal-switch">
        Already have an account? <Link to="/login">Log In</Link>
      </p>
    </section>
  );
}
