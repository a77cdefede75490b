import { useState } from 'react';
import { describeError } from '../apollo/errors';
import { Modal } from './Modal';
import './forms.css';
import './Modal.css';

interface ConfirmModalProps {
  title: string;
  question: string;
  confirmLabel: string;
  /** One more line under the question (what the action cannot undo). */
  detail?: string;
  onConfirm: () => Promise<void>;
  onClose: () => void;
}

/** "Are you sure ...?" with "No" and a destructive button; shows the server's refusal (e.g. a customer still in use). */
export function ConfirmModal({ title, question, confirmLabel, detail, onConfirm, onClose }: ConfirmModalProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function confirm() {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
    } catch (caught) {
      setError(describeError(caught).message);
      setBusy(false);
    }
  }

  return (
    <Modal title={title} onClose={onClose}>
      <p className="confirm-question">{question}</p>
      {detail && <p className="confirm-detail muted">{detail}</p>}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="form-actions">
        <button type="button" className="button button-secondary" onClick={onClose} data-autofocus>
          No
        </button>
        <button type="button" className="button button-danger" onClick={confirm} disabled={busy}>
          {busy ? 'Loading...' : confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
