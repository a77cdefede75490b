import { Link, Navigate } from 'react-router-dom';
import { SignupForm } from './SignupForm';
import { useSession } from '../app/session';
import { FormPage } from '../ui/FormPage';
import './session.css';

/** signup: redirects to / when already signed in. */
export default function SignupPage() {
  const me = useSession();
  if (me) return <Navigate to="/" replace />;
  return (
    <FormPage title="Sign Up" subtitle="Create your agent account." className="auth-page">
      <SignupForm variant="page" to="/" />
      <p className="modal-switch">
        Already have an account? <Link to="/login">Log In</Link>
      </p>
    </FormPage>
  );
}
