/**
 * The timeline's shape, as pure functions of the entries (a change line's words are history.ts's): the grouping of consecutive changes by one actor within a minute, and the
 * All / Notes / Changes filter as the address keeps it. The types name only the fields these functions read, so the
 * query's results (web/src/gql) fit them.
 */

/** A field change as the schema writes it: `field` is the GraphQL field name, values as the schema spells them. */
export interface FieldChangeValue {
  field: string;
  from?: string | null;
  to?: string | null;
  /** The names of what `from` and `to` identify (a team, an agent, a macro, a requester), when the server gives them. */
  fromLabel?: string | null;
  toLabel?: string | null;
}

export interface ActorValue {
  kind: string;
  name: string;
  user?: { id: number } | null;
}

export interface ChangeValue {
  __typename: 'TicketChange';
  seq: number;
  at: string;
  kind: string;
  actor: ActorValue;
  /** The door: WEB, API_TOKEN, REST, SYSTEM. */
  via: string;
  /** The note a NOTE_EDITED or NOTE_DELETED change is about. */
  noteId?: number | null;
  changes: readonly FieldChangeValue[];
}

export interface NoteValue {
  __typename: 'TicketNote' | 'TicketReply' | 'RequesterMessage';
  seq: number;
  at: string;
}

/**
 * One row of the timeline: an entry of its own (a note, a public reply, a requester's message), or one or more
 * changes by one actor within a minute (newest first).
 */
export type TimelineRow<N extends NoteValue, C extends ChangeValue> =
  { type: 'note'; key: string; note: N } | { type: 'changes'; key: string; actor: ActorValue; via: string; at: string; changes: C[] };

/** Entries that are a card of their own (never grouped): notes, replies and requester messages. */
const CARD_KEYS: Record<NoteValue['__typename'], string> = { TicketNote: 'n', TicketReply: 'r', RequesterMessage: 'm' };

/** Changes by one actor whose first and last are at most this far apart read as one line. */
export const GROUP_WITHIN_MS = 60_000;

/** The actor as a line names them: their name (an API token's name is its own), the system as "Fulcrum". */
export function actorName(actor: ActorValue): string {
  return actor.kind === 'SYSTEM' && !actor.name ? 'Fulcrum' : actor.name;
}

/** How a change came in, when not through the web app: "with an API token", "through the REST API". */
export function viaWords(via: string): string {
  if (via === 'REQUESTER_PAGE') return "on the requester's page";
  if (via === 'EMAIL') return 'by email';
  return via === 'API_TOKEN' ? 'with an API token' : via === 'REST' ? 'through the REST API' : '';
}

const sameActor = (a: ActorValue, b: ActorValue) => a.kind === b.kind && a.name === b.name && (a.user?.id ?? null) === (b.user?.id ?? null);

/**
 * The rows of a timeline held newest first: each note on its own; consecutive changes by one actor (through one door) as one row
 * while they are at most GROUP_WITHIN_MS after the group's first (a note or another actor in between ends a
 * group; a creation is a row of its own). Groups are formed from the oldest entry held, so a live entry arriving on top joins the newest group or
 * starts its own and never regroups the rows below it; a group is keyed by its oldest entry's seq.
 */
export function timelineRows<N extends NoteValue, C extends ChangeValue>(entries: readonly (N | C)[]): TimelineRow<N, C>[] {
  const rows: TimelineRow<N, C>[] = [];
  let group: Extract<TimelineRow<N, C>, { type: 'changes' }> | null = null;
  let groupStart = 0;
  for (let index = entries.length - 1; index >= 0; index--) {
    const entry = entries[index];
    if (entry.__typename !== 'TicketChange') {
      rows.push({ type: 'note', key: `${CARD_KEYS[entry.__typename]}${entry.seq}`, note: entry });
      group = null;
      continue;
    }
    const change = entry;
    const time = Date.parse(change.at);
    // A creation is a row of its own: what was changed after it reads as its own sentence.
    if (change.kind === 'CREATED') {
      rows.push({ type: 'changes', key: `c${change.seq}`, actor: change.actor, via: change.via, at: change.at, changes: [change] });
      group = null;
      continue;
    }
    if (group && sameActor(group.actor, change.actor) && group.via === change.via && time - groupStart <= GROUP_WITHIN_MS) {
      group.changes.unshift(change);
      group.at = change.at;
    } else {
      group = { type: 'changes', key: `c${change.seq}`, actor: change.actor, via: change.via, at: change.at, changes: [change] };
      groupStart = time;
      rows.push(group);
    }
  }
  return rows.reverse();
}

/** The seqs one block of rows covers (TimelineView renders the rows block by block). */
export const BLOCK_SEQS = 100;

/** A row's seq: its entry's; a group's is its oldest entry's, which its key names too and which never changes. */
export function rowSeq(row: TimelineRow<NoteValue, ChangeValue>): number {
  return row.type === 'note' ? row.note.seq : row.changes[row.changes.length - 1].seq;
}

/**
 * The rows (newest first) in runs of one block each: the rows whose seqs share a hundred. A row's block depends on
 * the row alone, so an entry arriving on top changes the newest block only, and older entries loaded at the end
 * change the oldest block only: every other block keeps its key and its rows.
 */
export function rowBlocks<R extends TimelineRow<NoteValue, ChangeValue>>(rows: readonly R[]): { key: string; rows: R[] }[] {
  const blocks: { key: string; rows: R[] }[] = [];
  for (const row of rows) {
    const key = `b${Math.floor(rowSeq(row) / BLOCK_SEQS)}`;
    const last = blocks.at(-1);
    if (last?.key === key) last.rows.push(row);
    else blocks.push({ key, rows: [row] });
  }
  return blocks;
}

/** The timeline's filter, as the schema's TimelineFilter. */
export type TimelineFilterValue = 'ALL' | 'NOTES' | 'CHANGES' | 'REPLIES';

/** The filter's address parameter (`?timeline=notes`) and its values. */
export const FILTER_PARAM = 'timeline';
export const FILTERS: readonly { value: TimelineFilterValue; label: string; param: string | null }[] = [
  { value: 'ALL', label: 'All', param: null },
  { value: 'NOTES', label: 'Notes', param: 'notes' },
  { value: 'CHANGES', label: 'Changes', param: 'changes' },
  { value: 'REPLIES', label: 'Replies', param: 'replies' },
];

/** The filter an address asks for; anything unknown is All. */
export function filterFromParam(param: string | null): TimelineFilterValue {
  return FILTERS.find((filter) => filter.param !== null && filter.param === param?.toLowerCase())?.value ?? 'ALL';
}

/** The parameter value for a filter (null: leave it out of the address). */
export function paramOfFilter(filter: TimelineFilterValue): string | null {
  return FILTERS.find((candidate) => candidate.value === filter)?.param ?? null;
}

/** Whether a filter's list holds an entry of this type. */
export function filterHolds(filter: TimelineFilterValue, typename: 'TicketNote' | 'TicketChange' | 'TicketReply' | 'RequesterMessage'): boolean {
  if (filter === 'ALL') return true;
  if (filter === 'NOTES') return typename === 'TicketNote';
  if (filter === 'CHANGES') return typename === 'TicketChange';
  return typename === 'TicketReply' || typename === 'RequesterMessage';
}

/**
 * Entries newest first with `incoming` merged in: each seq once (a repeated entry replaces the held one), in
 * descending seq. For the live events, which may repeat what a page or a mutation already brought.
 */
export function mergeBySeq<T extends { seq: number }>(held: readonly T[], incoming: readonly T[]): T[] {
  const bySeq = new Map<number, T>();
  for (const entry of held) bySeq.set(entry.seq, entry);
  for (const entry of incoming) bySeq.set(entry.seq, entry);
  return [...bySeq.values()].sort((a, b) => b.seq - a.seq);
}
