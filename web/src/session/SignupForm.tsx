import { useState } from 'react';
import { MESSAGES, validateSignup, type FieldErrors } from '@fulcrum/schema/validation';
import { useMutation } from '@apollo/client/react';
import { useNavigate } from 'react-router-dom';
import { SIGNUP_MUTATION, useSessionSwitch } from '../app/auth';
import { Field } from '../ui/Field';
import { Modal } from '../ui/Modal';
import { useModals } from '../app/modals';
import { FormError, useFormState } from '../ui/useFormState';
import { FormActions } from '../ui/FormActions';
import './session.css';

interface SignupFormProps {
  /**
   * "modal" checks every rule of SPEC section 5 in the browser; "page" only checks that the passwords
   * match (the server still checks the rest and its messages show under the fields).
   */
  variant: 'modal' | 'page';
  to: string;
  onDone?: () => void;
}

export function SignupForm({ variant, to, onDone }: SignupFormProps) {
  const [email, setEmail] = useState('');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const form = useFormState();
  const [signup] = useMutation(SIGNUP_MUTATION);
  const switchSession = useSessionSwitch();
  const navigate = useNavigate();

  function clientErrors(): FieldErrors {
    if (variant === 'modal') return validateSignup({ email, username, password, confirmPassword });
    return confirmPassword === password ? {} : { confirmPassword: [MESSAGES.confirmPasswordPage] };
  }

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!form.check(clientErrors())) return;
    const ok = await form.run(async () => {
      const { data } = await signup({ variables: { input: { email, username, password } } });
      if (!data) throw new Error('signup returned no data');
      await switchSession();
      void navigate(to);
    });
    if (ok) onDone?.();
  }

  return (
    <form className="form" onSubmit={submit} noValidate>
      <Field label="Email" errors={form.errors.email}>
        {(props) => <input {...props} type="email" name="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />}
      </Field>
      <Field label="Username" errors={form.errors.username}>
        {(props) => <input {...props} name="username" autoComplete="username" value={username} onChange={(e) => setUsername(e.target.value)} />}
      </Field>
      <Field label="Password" errors={form.errors.password}>
        {(props) => (
          <input {...props} type="password" name="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />
        )}
      </Field>
      <Field label="Confirm Password" errors={form.errors.confirmPassword}>
        {(props) => (
          <input
            {...props}
            type="password"
            name="confirmPassword"
            autoComplete="new-password"
            value={confirmPassword}
            onChange={(e) => setConfirmPassword(e.target.value)}
          />
        )}
      </Field>
      <FormError message={form.formError} />
      <FormActions label="Sign Up" loading={form.loading} />
    </form>
  );
}

export function SignupModal({ onClose }: { onClose: () => void }) {
  const { openModal } = useModals();
  return (
    <Modal title="Sign Up" onClose={onClose}>
      <SignupForm variant="modal" to="/view/tickets/all" onDone={onClose} />
      <p className="modal-switch">
        Already have an account?{' '}
        <button type="button" className="link-button" onClick={() => openModal('login')}>
          Log In
        </button>
      </p>
    </Modal>
  );
}
