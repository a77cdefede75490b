import { useId, useMemo, useState } from 'react';
import { validateTicketNote } from '@fulcrum/schema/validation';
import { describeError } from '../../apollo/errors';
import { RelativeTime } from '../../ui/RelativeTime';
import type { NoteEntry } from './entryTypes';
import { noteHtml } from './markdown';

/** normal; being edited; locked while another note of the timeline is. */
export type NoteMode = 'normal' | 'editing' | 'locked';

interface TimelineNoteProps {
  note: NoteEntry;
  mine: boolean;
  mode: NoteMode;
  onEdit: () => void;
  onCancel: () => void;
  onSave: (body: string) => Promise<void>;
  onDelete: () => void;
}

/** Markdown as sanitized HTML (markdown.ts), rendered once per text. */
function NoteBody({ body, className }: { body: string; className: string }) {
  const html = useMemo(() => noteHtml(body), [body]);
  // The only raw HTML the app inserts: noteHtml escapes the note's own HTML and DOMPurify keeps a fixed allowlist.
  return <div className={className} dangerouslySetInnerHTML={{ __html: html }} />;
}

/**
 * One note of a ticket's timeline: author, time and the "edited" marker (its earlier versions a click away, in a
 * disclosure), the body as Markdown, Edit and Delete on one's own. A deleted note is a tombstone: "Note deleted by
 * X", its text gone.
 */
export function TimelineNote({ note, mine, mode, onEdit, onCancel, onSave, onDelete }: TimelineNoteProps) {
  const headingId = useId();
  // One name per person on the page: the viewer's notes carry their name too, as their change lines do.
  const author = note.author.username;

  if (note.deletedAt || note.body == null) {
    return (
      <article className="timeline-note timeline-tombstone" aria-labelledby={headingId}>
        <p id={headingId} className="timeline-line">
          Note deleted by {note.author.username}
          {note.deletedAt && (
            <>
              {' · '}
              <RelativeTime value={note.deletedAt} />
            </>
          )}
        </p>
      </article>
    );
  }

  return (
    <article className={`timeline-note${mine ? ' timeline-note-mine' : ''}`} aria-labelledby={headingId}>
      <header className="timeline-note-header">
        <h3 id={headingId} className="timeline-note-author">
          {author}
          <span className="visually-hidden"> wrote a note</span>
        </h3>
        <RelativeTime value={note.at} />
      </header>
      {mode === 'editing' ? (
        <NoteEditor body={note.body} onCancel={onCancel} onSave={onSave} />
      ) : (
        <NoteBody body={note.body} className="note-markdown note-body" />
      )}
      {note.editedAt && <Revisions note={note} />}
      {mine && mode !== 'editing' && (
        <div className="timeline-note-actions">
          <button type="button" className="button button-small button-ghost" onClick={onEdit} disabled={mode === 'locked'}>
            Edit<span className="visually-hidden"> note</span>
          </button>
          <button type="button" className="button button-small button-ghost" onClick={onDelete} disabled={mode === 'locked'}>
            Delete<span className="visually-hidden"> note</span>
          </button>
        </div>
      )}
    </article>
  );
}

/** "edited" with the note's earlier versions (newest first) a click away. */
function Revisions({ note }: { note: NoteEntry }) {
  return (
    <details className="note-revisions">
      <summary>
        edited <RelativeTime value={note.editedAt!} />
        <span className="visually-hidden">: show earlier versions</span>
      </summary>
      {note.revisions.length ? (
        <ol className="note-revision-list" aria-label="Earlier versions">
          {note.revisions.map((revision, index) => (
            <li key={`${revision.at}-${index}`} className="note-revision">
              <p className="note-revision-meta muted">
                Before {revision.editor.username}’s edit · <RelativeTime value={revision.at} />
              </p>
              <NoteBody body={revision.body} className="note-markdown note-revision-body" />
            </li>
          ))}
        </ol>
      ) : (
        <p className="muted">No earlier versions kept.</p>
      )}
    </details>
  );
}

/** Editing a note in place: the same length rule as the composer and the server; Ctrl/Cmd+Enter saves. */
function NoteEditor({ body, onCancel, onSave }: { body: string; onCancel: () => void; onSave: (body: string) => Promise<void> }) {
  const [draft, setDraft] = useState(body);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();

  async function save(event: React.FormEvent) {
    event.preventDefault();
    const problem = validateTicketNote({ body: draft }).body?.[0];
    if (problem) {
      setError(problem);
      return;
    }
    setError(null);
    setBusy(true);
    try {
      await onSave(draft);
    } catch (caught) {
      const failure = describeError(caught);
      setError(failure.fields.body?.[0] ?? failure.message);
      setBusy(false);
    }
  }

  return (
    <form className="note-editor" onSubmit={save} noValidate>
      <label className="visually-hidden" htmlFor={id}>
        Edit note
      </label>
      <textarea
        id={id}
        value={draft}
        rows={4}
        // eslint-disable-next-line jsx-a11y/no-autofocus -- focus follows the Edit button the user pressed into the field it opened
        autoFocus
        aria-invalid={!!error}
        aria-describedby={error ? `${id}-error` : undefined}
        aria-keyshortcuts="Control+Enter Meta+Enter"
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) event.currentTarget.form?.requestSubmit();
          if (event.key === 'Escape') onCancel();
        }}
      />
      {error && (
        <p className="field-errors-inline" id={`${id}-error`}>
          {error}
        </p>
      )}
      <div className="timeline-note-actions">
        <button type="submit" className="button button-small button-primary" disabled={busy}>
          {busy ? 'Loading...' : 'Save'}
        </button>
        <button type="button" className="button button-small button-secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
