import { useId, type ReactNode } from 'react';
import './forms.css';

interface FieldProps {
  label: string;
  errors?: readonly string[];
  hint?: ReactNode;
  /**
   * The spec's longest length for this field (from LIMITS in the shared validation module): the control gets it as
   * `maxLength`, so it takes no more, and a counter shows how much is used. Needs `length`.
   */
  max?: number;
  /** The current value's length, for the counter. */
  length?: number;
  /** Renders the control; gets the id and aria attributes it must spread (the label's id is `${id}-label`). */
  children: (control: { id: string; 'aria-invalid': boolean; 'aria-describedby'?: string; maxLength?: number }) => ReactNode;
}

/** A label, one control, its character counter where the field has a limit, and its error messages underneath. */
export function Field({ label, errors, hint, max, length = 0, children }: FieldProps) {
  const id = useId();
  const errorId = `${id}-errors`;
  const counterId = `${id}-counter`;
  const hasErrors = !!errors && errors.length > 0;
  const describedBy = [hasErrors && errorId, max !== undefined && counterId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${hasErrors ? ' field-invalid' : ''}`}>
      <label htmlFor={id} id={`${id}-label`}>
        {label}
      </label>
      {children({ id, 'aria-invalid': hasErrors, 'aria-describedby': describedBy, ...(max !== undefined ? { maxLength: max } : {}) })}
      {max !== undefined && (
        <p className={`field-counter${length >= max ? ' field-counter-full' : ''}`} id={counterId}>
          {length.toLocaleString()} / {max.toLocaleString()} characters
        </p>
      )}
      {hint && <p className="field-hint">{hint}</p>}
      {hasErrors && (
        <ul className="field-errors" id={errorId}>
          {errors.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
