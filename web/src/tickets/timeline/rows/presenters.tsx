/**
 * The timeline's rows by entry kind: one presenter per kind that is a card of its own, in a registry typed by the
 * schema's union (entryTypes.ts), so a kind without a presenter does not compile. Changes are not here: they are
 * grouped into lines (entries.ts) and drawn by ChangeRow.
 */
import type { ReactElement } from 'react';
import type { CardEntry, CardKind, EntryViews } from '../entryTypes';
import type { NoteMode } from '../TimelineNote';
import { MessageRow, NoteRow, ReplyRow, type RowActions } from './cards';

/** What a presenter may read beside its entry: who is looking, which note is being edited, the note actions. */
export interface RowContext {
  meId: number;
  editing: number | null;
  actions: RowActions;
}

type Presenter<K extends CardKind> = (entry: EntryViews[K], key: string, context: RowContext) => ReactElement;

const noteMode = (id: number, editing: number | null): NoteMode => (editing === null ? 'normal' : editing === id ? 'editing' : 'locked');

export const PRESENTERS: { [K in CardKind]: Presenter<K> } = {
  TicketNote: (note, key, { meId, editing, actions }) => (
    <NoteRow key={key} note={note} mine={note.author.id === meId} mode={noteMode(note.id, editing)} actions={actions} />
  ),
  TicketReply: (reply, key) => <ReplyRow key={key} reply={reply} />,
  RequesterMessage: (message, key) => <MessageRow key={key} message={message} />,
};

/** The row of a card entry, by its kind's presenter. */
export function presentCard(entry: CardEntry, key: string, context: RowContext): ReactElement {
  // The registry's type pairs each kind with its entry; TypeScript cannot follow that pairing through a union.
  const present = PRESENTERS[entry.__typename] as Presenter<CardKind>;
  return present(entry, key, context);
}
