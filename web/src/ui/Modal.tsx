import { useEffect, useId, useRef, type ReactNode } from 'react';
import './Modal.css';

interface ModalProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** "wide" for the message center. */
  size?: 'normal' | 'wide';
}

/**
 * A native <dialog> opened with showModal(): the page behind is inert, Esc closes it (we route the
 * cancel event through onClose), a click on the backdrop closes it, and focus moves to the first field.
 */
export function Modal({ title, onClose, children, size = 'normal' }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const previouslyFocused = document.activeElement as HTMLElement | null;
    if (!dialog.open) dialog.showModal();
    const first = dialog.querySelector<HTMLElement>(
      '[data-autofocus], input:not([type=hidden]):not([disabled]), textarea:not([disabled]), select:not([disabled]), .modal-content button:not([disabled])',
    );
    first?.focus();
    return () => {
      dialog.close();
      previouslyFocused?.focus?.();
    };
  }, []);

  return (
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions -- a press on the backdrop (the dialog itself, outside its content) closes it; keyboard users have Esc (onCancel) and the Close button
    <dialog
      ref={ref}
      className={`modal modal-${size}`}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onMouseDown={(event) => {
        if (event.target === ref.current) onClose();
      }}
    >
      <div className="modal-panel">
        <div className="modal-header">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="icon-button" aria-label="Close" onClick={onClose}>
            <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
              <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </button>
        </div>
        <div className="modal-content">{children}</div>
      </div>
    </dialog>
  );
}
