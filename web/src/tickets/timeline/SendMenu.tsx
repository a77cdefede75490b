import { useEffect, useId, useRef, useState } from 'react';

/** What sending a reply also does to the ticket: nothing, or its new status. */
export type SendStatus = null | 'PENDING' | 'SOLVED';

const OPTIONS: readonly { label: string; status: SendStatus }[] = [
  { label: 'Send', status: null },
  { label: 'Send and set Pending', status: 'PENDING' },
  { label: 'Send and set Solved', status: 'SOLVED' },
];

/**
 * The reply's send control: "Send" (the form's submit) and a menu button "More send options" holding "Send",
 * "Send and set Pending" and "Send and set Solved" (a menu: arrows move, Enter chooses, Escape closes and returns
 * to the button).
 */
export function SendMenu({ busy, onSend }: { busy: boolean; onSend: (status: SendStatus) => void }) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const toggle = useRef<HTMLButtonElement>(null);
  const items = useRef<(HTMLButtonElement | null)[]>([]);
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    items.current[0]?.focus();
    function outside(event: MouseEvent) {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    }
    document.addEventListener('mousedown', outside);
    return () => document.removeEventListener('mousedown', outside);
  }, [open]);

  function close() {
    setOpen(false);
    toggle.current?.focus();
  }

  function onMenuKey(event: React.KeyboardEvent) {
    const index = items.current.findIndex((item) => item === document.activeElement);
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      close();
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      items.current[(index + step + OPTIONS.length) % OPTIONS.length]?.focus();
    } else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      items.current[event.key === 'Home' ? 0 : OPTIONS.length - 1]?.focus();
    } else if (event.key === 'Tab') setOpen(false);
  }

  return (
    <div className="send-split" ref={root}>
      <button type="submit" className="button button-primary send-main" aria-disabled={busy}>
        {busy ? 'Loading...' : 'Send'}
      </button>
      <button
        ref={toggle}
        type="button"
        className="button button-primary send-more"
        aria-label="More send options"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((was) => !was)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault();
            setOpen(true);
          }
        }}
      >
        <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <ul className="send-menu" role="menu" id={menuId} aria-label="Send options" onKeyDown={onMenuKey}>
          {OPTIONS.map((option, index) => (
            <li key={option.label} role="none">
              <button
                ref={(item) => {
                  items.current[index] = item;
                }}
                type="button"
                role="menuitem"
                tabIndex={-1}
                onClick={() => {
                  setOpen(false);
                  onSend(option.status);
                }}
              >
                {option.label}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
