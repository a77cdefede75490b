/**
 * The history's sentences, as pure functions of the changes: what changed and whom, in words a lead can read
 * ("moved it to Tier 1 and assigned it to Marnie", "changed the priority from Low to Urgent", "applied the macro
 * Password reset"). People, teams and macros are named by the labels the server gives each field change
 * (`fromLabel` / `toLabel`); a change without a label (an older server, a deleted record) says what changed without
 * a name rather than show an id. The changes of one row (one actor within a minute) read as one sentence, each field
 * once: from its first value to its last.
 */

/** A field change as the schema writes it, with the names the server resolved for ids. */
export interface HistoryChange {
  field: string;
  from?: string | null;
  to?: string | null;
  fromLabel?: string | null;
  toLabel?: string | null;
}

/** One change entry: its kind and its field changes. */
export interface HistoryEntry {
  kind: string;
  changes: readonly HistoryChange[];
}

/** Status values as the app shows them. */
const STATUS_WORDS: Record<string, string> = { OPEN: 'Open', PENDING: 'Pending', SOLVED: 'Solved' };

/** Kinds of change that are no field change, and their phrase. */
const KIND_PHRASES: Record<string, string> = {
  CREATED: 'created the ticket',
  DELETED: 'deleted the ticket',
  NOTE_EDITED: 'edited a note',
  NOTE_DELETED: 'deleted a note',
  HELD_ACCEPTED: 'accepted a held mail',
  HELD_DISCARDED: 'discarded a held mail',
};

/** Fields whose raw value is an id: only their label names them. */
const ID_FIELDS = new Set(['teamId', 'assigneeId', 'requesterId', 'macroId']);

/** Macro 1 is the built-in "No Macro": applying it removes the ticket's macro. */
const NO_MACRO = '1';

const quoted = (value: string) => `“${value}”`;

/** The words a value reads as: the server's label, a status's word, a plain value; null for an id without a label. */
function valueWords(field: string, value: string | null | undefined, label: string | null | undefined): string | null {
  if (value == null) return null;
  if (field === 'title') return quoted(label ?? value);
  if (label) return label;
  if (ID_FIELDS.has(field)) return null;
  if (field === 'status') return STATUS_WORDS[value] ?? value;
  return value;
}

/** "changed the priority from Low to Urgent", "set the type to Task", "cleared the priority". */
function fromTo(what: string, from: string | null, to: string | null, hadValue: boolean): string {
  if (to === null) return hadValue ? `cleared the ${what}` : `changed the ${what}`;
  if (from === null) return hadValue ? `changed the ${what} to ${to}` : `set the ${what} to ${to}`;
  return `changed the ${what} from ${from} to ${to}`;
}

/** One field change as a phrase without its actor. */
export function historyPhrase(change: HistoryChange): string {
  const { field } = change;
  const from = valueWords(field, change.from, change.fromLabel);
  const to = valueWords(field, change.to, change.toLabel);
  switch (field) {
    case 'teamId':
      if (change.to == null) return from ? `took it out of ${from}` : 'took it out of its team';
      return to ? `moved it to ${to}` : 'moved it to another team';
    case 'assigneeId':
      if (change.to == null) return from ? `unassigned ${from}` : 'unassigned it';
      return to ? `assigned it to ${to}` : 'assigned it to someone else';
    case 'macroId':
      if (change.to == null || change.to === NO_MACRO) return from ? `removed the macro ${from}` : 'removed the macro';
      return to ? `applied the macro ${to}` : 'applied another macro';
    case 'requesterId':
      return to ? `changed the requester${from ? ` from ${from}` : ''} to ${to}` : 'changed the requester';
    case 'description':
      return 'edited the description';
    case 'image':
      return change.from == null ? 'added an image' : change.to == null ? 'removed the image' : 'replaced the image';
    case 'title':
      return to ? (from ? `renamed it from ${from} to ${to}` : `named it ${to}`) : 'cleared the title';
    default:
      return fromTo(field, from, to, change.from != null);
  }
}

/**
 * The field changes of entries held in the order they happened, each field once: its first `from` and its last
 * `to` (a ticket reassigned twice within a row names where it ended up); a field that ended where it began is left out.
 */
export function mergedChanges(entries: readonly HistoryEntry[]): HistoryChange[] {
  const byField = new Map<string, HistoryChange>();
  for (const entry of entries) {
    for (const change of entry.changes) {
      const held = byField.get(change.field);
      if (held) byField.set(change.field, { ...held, to: change.to, toLabel: change.toLabel });
      else byField.set(change.field, change);
    }
  }
  // The team is named before the agent: "moved it to Tier 1 and assigned it to Marnie".
  const rank = (field: string) => (field === 'teamId' ? 0 : field === 'assigneeId' ? 1 : 2);
  return [...byField.values()]
    .sort((a, b) => rank(a.field) - rank(b.field))
    .filter((change) => change.field === 'description' || change.field === 'image' || (change.from ?? null) !== (change.to ?? null));
}

/** "a", "a and b", "a, b and c"; with a comma before the last "and" when a phrase has an "and" of its own. */
export function sentenceList(phrases: readonly string[]): string {
  if (phrases.length <= 1) return phrases[0] ?? '';
  const last = phrases.some((phrase) => phrase.includes(' and ')) ? ', and ' : ' and ';
  return `${phrases.slice(0, -1).join(', ')}${last}${phrases[phrases.length - 1]}`;
}

/**
 * What one row of changes did, without its actor, as one sentence: `entries` newest first, as the timeline holds
 * them. The kinds that are no field change are named first (a creation's own fields are the ticket's first values,
 * not changes: only what changed after it is told).
 */
export function historySentence(entries: readonly HistoryEntry[]): string {
  const ordered = [...entries].reverse();
  const phrases: string[] = [];
  const fieldEntries: HistoryEntry[] = [];
  for (const entry of ordered) {
    const phrase = KIND_PHRASES[entry.kind];
    if (phrase) {
      if (!phrases.includes(phrase)) phrases.push(phrase);
    } else fieldEntries.push(entry);
  }
  const changes = mergedChanges(fieldEntries);
  // An assignment's team and agent are one phrase ("moved it to Tier 1 and assigned it to Marnie"): the row's other
  // changes are listed beside it, not between them.
  const team = changes.findIndex((change) => change.field === 'teamId');
  const agent = changes.findIndex((change) => change.field === 'assigneeId');
  changes.forEach((change, index) => {
    if (index === agent && team >= 0) return;
    phrases.push(index === team && agent >= 0 ? `${historyPhrase(change)} and ${historyPhrase(changes[agent])}` : historyPhrase(change));
  });
  return phrases.length ? sentenceList(phrases) : 'updated the ticket';
}
