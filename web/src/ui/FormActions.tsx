import type { ReactNode } from 'react';
import './forms.css';

/**
 * The button row every form ends with: optional extra buttons, an optional Cancel, and the submit button, which
 * reads "Loading..." after a valid submit (SPEC section 4) and looks disabled while `disabled`.
 */
export function FormActions({
  label,
  loading,
  disabled = false,
  onCancel,
  children,
}: {
  label: string;
  loading: boolean;
  disabled?: boolean;
  onCancel?: () => void;
  children?: ReactNode;
}) {
  return (
    <div className="form-actions">
      {children}
      {onCancel && (
        <button type="button" className="button button-secondary" onClick={onCancel}>
          Cancel
        </button>
      )}
      <button type="submit" className="button button-primary" disabled={disabled || loading}>
        {loading ? 'Loading...' : label}
      </button>
    </div>
  );
}
