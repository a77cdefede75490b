import { useRef, useState } from 'react';
import { hasErrors, type FieldErrors } from '@fulcrum/schema/validation';
import { describeError } from '../apollo/errors';
import './forms.css';

/**
 * The state every form shares: field errors (client rules, then the server's `extensions.fields`),
 * one form-level error, and "Loading..." between a valid submit and the answer.
 *
 * One rule for when every form validates: on submit; after that, a field that has shown an error is checked again
 * each time it changes (its error updates live, goes as soon as the field is fixed, and comes back if it is broken
 * again), while fields that never showed one stay quiet until the next submit. Forms call `recheck` after every
 * render (a `useEffect` without deps).
 */
export function useFormState() {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const lastValues = useRef<Record<string, unknown> | null>(null);
  const watched = useRef(new Set<string>());

  /**
   * `values`: the form's fields now, keyed like its errors; `found`: the client rules' errors for them. Each field
   * that has shown an error and changed since the last call gets `found`'s errors for it (none: the error goes). A
   * server error (e.g. "Email Already Exists") is replaced the same way once its field is edited.
   */
  function recheck(values: Record<string, unknown>, found: FieldErrors) {
    for (const field of Object.keys(errors)) if (errors[field]?.length) watched.current.add(field);
    const before = lastValues.current;
    lastValues.current = values;
    if (!before) return;
    setErrors((current) => {
      let next = current;
      for (const field of watched.current) {
        if (!(field in values) || Object.is(values[field], before[field])) continue;
        const now = found[field]?.length ? found[field] : undefined;
        if (!now && !(field in next)) continue;
        if (next === current) next = { ...current };
        if (now) next[field] = now;
        else delete next[field];
      }
      return next;
    });
  }

  /** Shows the client-side errors; returns true when the form may be sent. */
  function check(found: FieldErrors): boolean {
    setErrors(found);
    setFormError(null);
    return !hasErrors(found);
  }

  /** Runs the submit with "Loading..." on; a failure shows its field errors (the server's names are the form's) or its message. */
  async function run(submit: () => Promise<void>): Promise<boolean> {
    setLoading(true);
    try {
      await submit();
      return true;
    } catch (caught) {
      const failure = describeError(caught);
      setErrors(failure.fields);
      setFormError(hasErrors(failure.fields) ? null : failure.message);
      setLoading(false);
      return false;
    }
  }

  return { errors, setErrors, formError, setFormError, loading, setLoading, check, run, recheck };
}

export function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p className="form-error" role="alert">
      {message}
    </p>
  );
}
