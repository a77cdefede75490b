import { Link, Navigate } from 'react-router-dom';
import { LoginForm } from './LoginForm';
import { useSession } from '../app/session';
import { FormPage } from '../ui/FormPage';
import './session.css';

/** login: redirects to / when already signed in (including right after logging in here). */
export default function LoginPage() {
  const me = useSession();
  if (me) return <Navigate to="/" replace />;
  return (
    <FormPage title="Log In" subtitle="Welcome back to your workspace." className="auth-page">
      <LoginForm to="/" />
      <p className="modal-switch">
        New here? <Link to="/signup">Sign Up</Link>
      </p>
    </FormPage>
  );
}
