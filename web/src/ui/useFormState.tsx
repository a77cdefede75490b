import { useState } from 'react';
import { hasErrors, type FieldErrors } from '@fulcrum/schema/validation';
import { describeError, renameFields } from '../apollo/errors';

/**
 * The state every form shares: field errors (client rules, then the server's `extensions.fields`),
 * one form-level error, and "Loading..." between a valid submit and the answer.
 */
export function useFormState() {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);

  /** Shows the client-side errors; returns true when the form may be sent. */
  function check(found: FieldErrors): boolean {
    setErrors(found);
    setFormError(null);
    return !hasErrors(found);
  }

  /** Runs the submit with "Loading..." on; a failure shows its field errors (renamed) or its message. */
  async function run(submit: () => Promise<void>, fieldNames: Record<string, string> = {}): Promise<boolean> {
    setLoading(true);
    try {
      await submit();
      return true;
    } catch (caught) {
      const failure = describeError(caught);
      const fields = renameFields(failure.fields, fieldNames);
      setErrors(fields);
      setFormError(hasErrors(fields) ? null : failure.message);
      setLoading(false);
      return false;
    }
  }

  return { errors, setErrors, formError, setFormError, loading, setLoading, check, run };
}

export function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p className="form-error" role="alert">
      {message}
    </p>
  );
}
