import { useState, type ReactNode } from 'react';

/** The head of a list screen (customers, macros): eyebrow, "(n) Things", and the button that opens the create modal. */
export function RecordListHeader({ eyebrow, title, createLabel, onCreate }: { eyebrow: string; title: ReactNode; createLabel: string; onCreate: () => void }) {
  return (
    <header className="page-header page-header-row">
      <div>
        <p className="eyebrow">{eyebrow}</p>
        <h1>{title}</h1>
      </div>
      <button type="button" className="button button-primary" onClick={onCreate}>
        {createLabel}
      </button>
    </header>
  );
}

/** Which record of a list has its Edit or Delete modal open (one at a time). */
export function useRecordDialog<T>() {
  const [dialog, setDialog] = useState<{ kind: 'edit' | 'delete'; record: T } | null>(null);
  return {
    editing: dialog?.kind === 'edit' ? dialog.record : null,
    deleting: dialog?.kind === 'delete' ? dialog.record : null,
    edit: (record: T) => setDialog({ kind: 'edit', record }),
    remove: (record: T) => setDialog({ kind: 'delete', record }),
    close: () => setDialog(null),
  };
}
