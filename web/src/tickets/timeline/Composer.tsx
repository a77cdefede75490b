import { useEffect, useEffectEvent, useId, useImperativeHandle, useRef, useState, type Ref } from 'react';
import { LIMITS, MESSAGES, validAttachmentName, validateTicketNote, validateTicketReply } from '@fulcrum/schema/validation';
import { describeError } from '../../apollo/errors';
import { MacroPicker } from './MacroPicker';
import type { PickerMacro } from './macroGroups';
import { SendMenu, type SendStatus } from './SendMenu';

/** Who the composer writes to: the requester (a public reply, emailed) or the ticket's agents (an internal note). */
export type ComposerMode = 'reply' | 'note';

/** The mode stays as the agent left it, across tickets and visits, until they switch. */
const MODE_KEY = 'fulcrum.composerMode';

function storedMode(): ComposerMode {
  try {
    return localStorage.getItem(MODE_KEY) === 'reply' ? 'reply' : 'note';
  } catch {
    return 'note';
  }
}

/** What the page does with the composer (the r and n shortcuts). */
export interface ComposerHandle {
  focus(mode: ComposerMode): void;
}

export interface ComposerProps {
  requester: { name: string; email: string };
  /** The ticket's macro (apply_macro), offered as the suggested macro; macro 1, "No Macro", is none. */
  macro: { id: number; name: string } | null;
  /** The macros the picker offers (null while loading). */
  macros: readonly PickerMacro[] | null;
  meId: number;
  /** The macro's text for this ticket, rendered by the server. */
  renderMacro: (macroId: number) => Promise<string>;
  requesterLink: string;
  /** Sends a reply with its files (at most LIMITS.replyAttachments.max; the server checks each by its bytes), and sets the status with it. */
  onReply: (body: string, files: File[], setStatus: SendStatus) => Promise<void>;
  onNote: (body: string) => Promise<void>;
  onRevokeLink: () => Promise<void>;
  handle?: Ref<ComposerHandle>;
}

const MODES: Record<ComposerMode, { tab: string; icon: string; label: string; hint: string; validate: (input: { body: unknown }) => { body?: string[] } }> = {
  reply: {
    tab: 'Reply to requester',
    icon: '✉',
    label: 'Reply to requester',
    hint: 'The requester receives this by email and on their page.',
    validate: validateTicketReply,
  },
  note: {
    tab: 'Internal note',
    // A Dingbats pencil, like the reply's envelope: in the fonts every system has (an emoji lock was an empty box
    // on a machine without an emoji font).
    icon: '✎',
    label: 'Add an internal note',
    hint: 'Only agents see notes. Markdown works.',
    validate: validateTicketNote,
  },
};

/** The types a reply may attach (the server reads the real type from the bytes). */
const ACCEPTED_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf'];

/**
 * The ticket page's composer: two modes, "Reply to requester" and "Internal note", told apart by colour,
 * icon and words, the send button naming the audience ("Send to ada@example.com" / "Add internal note"). The mode is
 * sticky (kept until the agent switches); each mode keeps its own draft, so a note's text never becomes a reply.
 * Macros are inserted where the cursor is, never unasked: "Insert macro" (Ctrl+M, or "/" at the start of an empty
 * line) and the ticket's own macro as a suggestion. A reply is sent as is or with the ticket's new status (the
 * send menu). Ctrl+Enter (Cmd+Enter) sends; the text is kept when the server refuses it.
 */
export function Composer({ requester, macro, macros, meId, renderMacro, requesterLink, onReply, onNote, onRevokeLink, handle }: ComposerProps) {
  const [mode, setModeState] = useState<ComposerMode>(storedMode);
  const [drafts, setDrafts] = useState<Record<ComposerMode, string>>({ reply: '', note: '' });
  const [errors, setErrors] = useState<Record<ComposerMode, string | null>>({ reply: null, note: null });
  const [busy, setBusy] = useState(false);
  const [copied, setCopied] = useState(false);
  // The reply's files (reply mode only: a note never has any).
  const [files, setFiles] = useState<File[]>([]);
  const [fileError, setFileError] = useState<string | null>(null);
  const id = useId();
  const box = useRef<HTMLTextAreaElement>(null);
  const [picking, setPicking] = useState(false);
  const [inserting, setInserting] = useState(false);
  // Where the text goes: the selection when the picker opened (focus moves to its search box meanwhile).
  const caret = useRef<{ start: number; end: number } | null>(null);
  const suggested = macro && macro.id !== 1 ? macro : null;

  useImperativeHandle(handle, () => ({
    focus(next) {
      setMode(next);
      requestAnimationFrame(() => box.current?.focus());
    },
  }));

  function setMode(next: ComposerMode) {
    setModeState(next);
    try {
      localStorage.setItem(MODE_KEY, next);
    } catch {
      // No storage (private mode): the mode lasts this page.
    }
  }

  const current = MODES[mode];
  const draft = drafts[mode];
  const error = errors[mode];
  const setError = (value: string | null) => setErrors((before) => ({ ...before, [mode]: value }));

  // Ctrl+M opens the picker from anywhere on the page (the textarea's cursor is where the macro goes).
  const onCtrlM = useEffectEvent((event: KeyboardEvent) => {
    if (event.key.toLowerCase() !== 'm' || !event.ctrlKey || event.altKey || event.metaKey || event.shiftKey) return;
    if (document.querySelector('[role="dialog"]')) return;
    event.preventDefault();
    openPicker(true);
  });
  useEffect(() => {
    const listener = (event: KeyboardEvent) => onCtrlM(event);
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, []);

  function openPicker(open: boolean) {
    if (open && box.current) caret.current = { start: box.current.selectionStart, end: box.current.selectionEnd };
    setPicking(open);
    if (!open) requestAnimationFrame(() => box.current?.focus());
  }

  /** Inserts a macro's text, rendered by the server for this ticket, at the cursor (the draft of the mode shown). */
  async function insertMacro(macroId: number) {
    setPicking(false);
    setInserting(true);
    const insertMode = mode;
    try {
      const text = await renderMacro(macroId);
      const current = box.current?.value ?? '';
      const at = caret.current ?? { start: current.length, end: current.length };
      caret.current = null;
      const next = current.slice(0, at.start) + text + current.slice(at.end);
      setDrafts((before) => ({ ...before, [insertMode]: next }));
      requestAnimationFrame(() => {
        const target = box.current;
        if (!target) return;
        target.focus();
        target.setSelectionRange(at.start + text.length, at.start + text.length);
      });
      setError(null);
    } catch (caught) {
      setErrors((before) => ({ ...before, [insertMode]: describeError(caught).message }));
    } finally {
      setInserting(false);
    }
  }

  function send(event: React.FormEvent) {
    event.preventDefault();
    void sendWith(null);
  }

  async function sendWith(setStatus: SendStatus) {
    if (busy) return;
    const sentMode = mode;
    const problem = MODES[sentMode].validate({ body: draft }).body?.[0];
    if (problem) {
      setError(problem);
      return;
    }
    setError(null);
    setBusy(true);
    try {
      if (sentMode === 'reply') {
        await onReply(draft, files, setStatus);
        setFiles([]);
        setFileError(null);
      } else await onNote(draft);
      setDrafts((before) => ({ ...before, [sentMode]: '' }));
    } catch (caught) {
      const failure = describeError(caught);
      if (sentMode === 'reply' && failure.fields.attachments?.[0]) setFileError(failure.fields.attachments[0]);
      else setErrors((before) => ({ ...before, [sentMode]: failure.fields.body?.[0] ?? failure.message }));
    } finally {
      setBusy(false);
    }
  }

  /** Adds chosen files; what cannot be sent is said in words and left out (the server checks the bytes again). */
  function addFiles(chosen: FileList | null) {
    if (!chosen?.length) return;
    const next = [...files];
    let problem: string | null = null;
    for (const file of Array.from(chosen)) {
      if (next.length >= LIMITS.replyAttachments.max) problem = MESSAGES.attachmentCount;
      else if (!ACCEPTED_TYPES.includes(file.type)) problem = `${file.name}: ${MESSAGES.attachmentType}`;
      else if (file.size > LIMITS.imageBytes) problem = `${file.name}: ${MESSAGES.attachmentSize}`;
      else if (!validAttachmentName(file.name)) problem = MESSAGES.attachmentName;
      else next.push(file);
    }
    setFiles(next);
    setFileError(problem);
  }

  async function copyLink() {
    try {
      await navigator.clipboard.writeText(requesterLink);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  }

  return (
    <form className={`composer composer-${mode}`} onSubmit={send} noValidate>
      <div className="composer-top">
        <div className="composer-modes" role="group" aria-label="Write">
          {(['reply', 'note'] as const).map((m) => (
            <button key={m} type="button" className="composer-mode" aria-pressed={mode === m} onClick={() => setMode(m)}>
              <span aria-hidden="true">{MODES[m].icon}</span> {MODES[m].tab}
            </button>
          ))}
        </div>
        <div className="composer-tools">
          {suggested && (
            <button type="button" className="button button-link button-small composer-suggested" onClick={() => void insertMacro(suggested.id)}>
              Suggested macro: {suggested.name}
            </button>
          )}
          <MacroPicker macros={macros} meId={meId} open={picking} onOpen={openPicker} onChoose={(chosen) => void insertMacro(chosen.id)} />
        </div>
      </div>
      <label htmlFor={id} className="composer-label">
        <span aria-hidden="true">{current.icon}</span> {current.label}
        {mode === 'reply' && (
          <span className="composer-audience">
            {' '}
            to {requester.name} &lt;{requester.email}&gt;
          </span>
        )}
      </label>
      <textarea
        id={id}
        ref={box}
        rows={4}
        value={draft}
        maxLength={LIMITS.ticketNote.max}
        placeholder={
          mode === 'reply'
            ? 'Write to the requester. They see exactly this text. / or Ctrl+M inserts a macro.'
            : 'Write what you tried, found or promised. Markdown works.'
        }
        aria-invalid={!!error}
        aria-busy={inserting || undefined}
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
        aria-keyshortcuts="Control+Enter Meta+Enter Control+M"
        onChange={(event) => {
          const value = event.target.value;
          setDrafts((before) => ({ ...before, [mode]: value }));
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
            event.preventDefault();
            event.currentTarget.form?.requestSubmit();
            return;
          }
          // "/" at the start of an empty line opens the macro picker (anywhere else it is a slash).
          if (event.key === '/' && !event.ctrlKey && !event.metaKey && !event.altKey) {
            const { value, selectionStart, selectionEnd } = event.currentTarget;
            const lineStart = value.lastIndexOf('\n', selectionStart - 1) + 1;
            const lineEnd = value.indexOf('\n', selectionEnd);
            const emptyLine = selectionStart === selectionEnd && selectionStart === lineStart && (lineEnd === -1 ? value.length : lineEnd) === selectionEnd;
            if (emptyLine) {
              event.preventDefault();
              openPicker(true);
            }
          }
        }}
      />
      {error && (
        <p className="field-errors-inline" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
      {mode === 'reply' && (
        <div className="composer-files">
          <label htmlFor={`${id}-files`}>
            Attach files <span className="muted">(at most {LIMITS.replyAttachments.max}: images or PDF, 5 MB each)</span>
          </label>
          <input
            id={`${id}-files`}
            type="file"
            multiple
            accept={ACCEPTED_TYPES.join(',')}
            aria-describedby={fileError ? `${id}-files-error` : undefined}
            aria-invalid={!!fileError}
            onChange={(event) => {
              addFiles(event.currentTarget.files);
              event.currentTarget.value = '';
            }}
          />
          {files.length > 0 && (
            <ul className="composer-file-list" aria-label="Files to send">
              {files.map((file, index) => (
                <li key={`${file.name}-${index}`}>
                  {file.name} <span className="muted">({Math.max(1, Math.round(file.size / 1024))} kB)</span>{' '}
                  <button
                    type="button"
                    className="button button-secondary"
                    aria-label={`Remove ${file.name}`}
                    onClick={() => {
                      setFiles((before) => before.filter((_, i) => i !== index));
                      setFileError(null);
                    }}
                  >
                    Remove
                  </button>
                </li>
              ))}
            </ul>
          )}
          {fileError && (
            <p className="field-errors-inline" id={`${id}-files-error`} role="alert">
              {fileError}
            </p>
          )}
        </div>
      )}
      <div className="composer-foot">
        <p className="composer-hint muted" id={`${id}-hint`}>
          {current.hint} <kbd>Ctrl</kbd>+<kbd>Enter</kbd> (<kbd>⌘</kbd>+<kbd>Enter</kbd> on a Mac) sends.
        </p>
        {mode === 'reply' ? (
          <SendMenu busy={busy} onSend={(status) => void sendWith(status)} />
        ) : (
          <button type="submit" className="button button-note" aria-disabled={busy}>
            {busy ? 'Loading...' : 'Add internal note'}
          </button>
        )}
      </div>
      {mode === 'reply' && (
        <details className="composer-link">
          <summary>Requester page link</summary>
          <div className="composer-link-row">
            <label htmlFor={`${id}-link`}>Requester page</label>
            <input id={`${id}-link`} readOnly value={requesterLink} onFocus={(event) => event.currentTarget.select()} />
            <button type="button" className="button button-secondary" onClick={() => void copyLink()}>
              {copied ? 'Copied' : 'Copy link'}
            </button>
            <button type="button" className="button button-secondary" onClick={() => void onRevokeLink().then(() => setCopied(false))}>
              Revoke link
            </button>
          </div>
        </details>
      )}
    </form>
  );
}
