import { Command } from 'cmdk';
import { useEffect, useId, useRef, useState } from 'react';
import { macroGroups, type PickerMacro } from './macroGroups';

interface MacroPickerProps {
  macros: readonly PickerMacro[] | null;
  meId: number;
  open: boolean;
  onOpen: (open: boolean) => void;
  /** Inserts the chosen macro (rendered by the server for this ticket); the picker closes after. */
  onChoose: (macro: PickerMacro) => void;
}

/**
 * "Insert macro": a searchable list of the macros the agent may use (cmdk: a combobox "Search macros" over a
 * listbox "Macros", grouped), opened by its button, by Ctrl+M or by "/" at the start of an empty line of the
 * composer. Enter inserts the highlighted macro; Escape closes and returns to the text.
 */
export function MacroPicker({ macros, meId, open, onOpen, onChoose }: MacroPickerProps) {
  const panelId = useId();
  return (
    <div className="macro-picker">
      <button
        type="button"
        className="button button-secondary button-small"
        aria-keyshortcuts="Control+M"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => onOpen(!open)}
      >
        Insert macro
      </button>
      {open && <PickerPanel id={panelId} macros={macros} meId={meId} onClose={() => onOpen(false)} onChoose={onChoose} />}
    </div>
  );
}

/** The open picker (mounted while open: each opening starts with an empty search, focused). */
function PickerPanel({
  id,
  macros,
  meId,
  onClose,
  onChoose,
}: {
  id: string;
  macros: readonly PickerMacro[] | null;
  meId: number;
  onClose: () => void;
  onChoose: (macro: PickerMacro) => void;
}) {
  const [search, setSearch] = useState('');
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    input.current?.focus();
  }, []);
  const groups = macros ? macroGroups(macros, meId) : [];
  return (
    <div className="macro-picker-panel" id={id}>
      <Command
        label="Search macros"
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault();
            event.stopPropagation();
            onClose();
          }
        }}
      >
        <Command.Input ref={input} value={search} onValueChange={setSearch} placeholder="Search macros…" className="macro-picker-input" />
        <Command.List label="Macros" className="macro-picker-list">
          {macros === null ? (
            <Command.Loading>Loading macros…</Command.Loading>
          ) : (
            <Command.Empty>{groups.length ? 'No macro matches.' : 'No macros yet: create one on the Macros page.'}</Command.Empty>
          )}
          {groups.map((group) => (
            <Command.Group key={group.heading} heading={group.heading}>
              {group.macros.map((macro) => (
                <Command.Item key={macro.id} value={`${macro.name} ${macro.id}`} keywords={[macro.description.slice(0, 200)]} onSelect={() => onChoose(macro)}>
                  <span className="macro-picker-name">{macro.name}</span>
                  <span className="macro-picker-preview muted">{macro.description.slice(0, 90)}</span>
                </Command.Item>
              ))}
            </Command.Group>
          ))}
        </Command.List>
      </Command>
    </div>
  );
}
