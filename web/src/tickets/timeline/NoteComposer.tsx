import { useId, useState } from 'react';
import { LIMITS, validateTicketNote } from '@fulcrum/schema/validation';
import { describeError } from '../../apollo/errors';

/**
 * Adds an internal note: Markdown, 1 to 10,000 characters (the shared rule and message, checked before sending and
 * by the server); Ctrl+Enter (Cmd+Enter on a Mac) sends. The text is kept when the server refuses it.
 */
export function NoteComposer({ onAdd }: { onAdd: (body: string) => Promise<void> }) {
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();

  async function add(event: React.FormEvent) {
    event.preventDefault();
    if (busy) return;
    const problem = validateTicketNote({ body: draft }).body?.[0];
    if (problem) {
      setError(problem);
      return;
    }
    setError(null);
    setBusy(true);
    try {
      await onAdd(draft);
      setDraft('');
    } catch (caught) {
      const failure = describeError(caught);
      setError(failure.fields.body?.[0] ?? failure.message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="note-composer" onSubmit={add} noValidate>
      <label htmlFor={id} className="note-composer-label">
        Add an internal note
      </label>
      <textarea
        id={id}
        rows={3}
        value={draft}
        maxLength={LIMITS.ticketNote.max}
        placeholder="Write what you tried, found or promised. Markdown works."
        aria-invalid={!!error}
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
        aria-keyshortcuts="Control+Enter Meta+Enter"
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
            event.preventDefault();
            event.currentTarget.form?.requestSubmit();
          }
        }}
      />
      {error && (
        <p className="field-errors-inline" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
      <div className="note-composer-foot">
        <p className="note-composer-hint muted" id={`${id}-hint`}>
          Only agents see notes. <kbd>Ctrl</kbd>+<kbd>Enter</kbd> (<kbd>⌘</kbd>+<kbd>Enter</kbd> on a Mac) adds it.
        </p>
        <button type="submit" className="button button-primary" aria-disabled={busy}>
          {busy ? 'Loading...' : 'Add note'}
        </button>
      </div>
    </form>
  );
}
