import { useState } from 'react';
import { validateLogin } from '@fulcrum/schema/validation';
import { useLoginAs } from '../app/auth';
import { Field } from '../ui/Field';
import { Modal } from '../ui/Modal';
import { useModals } from '../app/modals';
import { DEMO_USER } from '../app/demoAccounts';
import { FormError, useFormState } from '../ui/useFormState';
import { FormActions } from '../ui/FormActions';
import './session.css';

interface LoginFormProps {
  /** Where to go after logging in: / for the page, view/tickets/all for the modal. */
  to: string;
  /** The modal offers "Log in as Demo User", which fills the demo credentials. */
  withDemoFill?: boolean;
  onDone?: () => void;
}

export function LoginForm({ to, withDemoFill = false, onDone }: LoginFormProps) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const form = useFormState();
  const loginAs = useLoginAs();

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!form.check(validateLogin({ email, password }))) return;
    if (await form.run(() => loginAs(email, password, to))) onDone?.();
  }

  return (
    <form className="form" onSubmit={submit} noValidate>
      <Field label="Email" errors={form.errors.email}>
        {(props) => <input {...props} type="email" name="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />}
      </Field>
      <Field label="Password" errors={form.errors.password}>
        {(props) => (
          <input {...props} type="password" name="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
        )}
      </Field>
      <FormError message={form.formError} />
      <FormActions label="Log In" loading={form.loading}>
        {withDemoFill && (
          <button
            type="button"
            className="button button-secondary"
            onClick={() => {
              setEmail(DEMO_USER.email);
              setPassword(DEMO_USER.password);
            }}
          >
            Log in as Demo User
          </button>
        )}
      </FormActions>
    </form>
  );
}

export function LoginModal({ onClose }: { onClose: () => void }) {
  const { openModal } = useModals();
  return (
    <Modal title="Log In" onClose={onClose}>
      <LoginForm to="/view/tickets/all" withDemoFill onDone={onClose} />
      <p className="modal-switch">
        New here?{' '}
        <button type="button" className="link-button" onClick={() => openModal('signup')}>
          Sign Up
        </button>
      </p>
    </Modal>
  );
}
