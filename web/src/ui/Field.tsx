import { useId, type ReactNode } from 'react';

interface FieldProps {
  label: string;
  errors?: readonly string[];
  hint?: ReactNode;
  /** Renders the control; gets the id and aria attributes it must spread (the label's id is `${id}-label`). */
  children: (control: { id: string; 'aria-invalid': boolean; 'aria-describedby'?: string }) => ReactNode;
}

/** A label, one control, and its error messages underneath (client rules or the server's field errors). */
export function Field({ label, errors, hint, children }: FieldProps) {
  const id = useId();
  const errorId = `${id}-errors`;
  const hasErrors = !!errors && errors.length > 0;
  return (
    <div className={`field${hasErrors ? ' field-invalid' : ''}`}>
      <label htmlFor={id} id={`${id}-label`}>
        {label}
      </label>
      {children({ id, 'aria-invalid': hasErrors, 'aria-describedby': hasErrors ? errorId : undefined })}
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
