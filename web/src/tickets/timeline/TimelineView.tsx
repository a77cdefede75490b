import { memo, useEffect, useEffectEvent, useMemo, useRef, useState } from 'react';
import { loadProblem, problemText } from '../../apollo/errors';
import { FILTERS, rowBlocks, timelineRows, type TimelineFilterValue, type TimelineRow } from './entries';
import type { CardEntry, ChangeEntry, TimelineEntryView } from './entryTypes';
import { Composer, type ComposerProps } from './Composer';
import { ChangeRow } from './rows/ChangeRow';
import type { RowActions } from './rows/cards';
import { presentCard } from './rows/presenters';
import './timeline.css';

/** What the timeline does; the screen (TicketTimeline.tsx) does it with its mutations. */
export interface TimelineActions {
  add(body: string): Promise<void>;
  edit(id: number, body: string): Promise<void>;
  /** Asks first (ConfirmModal), then deletes. */
  confirmDelete(id: number): void;
}

interface TimelineViewProps {
  /** Newest first, as the server pages them. */
  entries: readonly TimelineEntryView[];
  meId: number;
  filter: TimelineFilterValue;
  onFilter: (filter: TimelineFilterValue) => void;
  hasOlder: boolean;
  loadOlder: () => Promise<unknown>;
  actions: TimelineActions;
  /** The first page is on its way (a filter just changed). */
  loading?: boolean;
  /** The composer's ticket side: the requester, the macro, the requester page and the reply and link actions. */
  composer: Omit<ComposerProps, 'onNote'>;
}

/** The order the agent reads the conversation in, remembered across tickets and visits. */
export type TimelineOrder = 'newest-first' | 'oldest-first';
const ORDER_KEY = 'fulcrum.timelineOrder';

function storedOrder(): TimelineOrder {
  try {
    return localStorage.getItem(ORDER_KEY) === 'oldest-first' ? 'oldest-first' : 'newest-first';
  } catch {
    return 'newest-first';
  }
}

const ORDERS: readonly { value: TimelineOrder; label: string }[] = [
  { value: 'newest-first', label: 'Newest first' },
  { value: 'oldest-first', label: 'Oldest first' },
];

/** Older entries start loading when the end of the list is this close to the viewport. */
const LOAD_OLDER_MARGIN = '600px';

/**
 * A ticket's conversation: the All / Notes / Changes filter, the composer and the entries, newest first under the
 * composer or oldest first above it (the agent's choice, remembered): notes as cards, changes as compact lines (one line for consecutive changes by one actor within a
 * minute). Older entries load as the end of the list scrolls into view (a "Load older entries" button does the
 * same from the keyboard); entries arriving on top leave the reader where they were (the browser's scroll
 * anchoring). Every row is laid out: with `content-visibility: auto` the rows a jump passed over (a Tab to the
 * button at the end) took their real height only after it and pushed the focused button off screen (timeline.css).
 */
export function TimelineView({ entries, meId, filter, onFilter, hasOlder, loadOlder, actions, loading, composer }: TimelineViewProps) {
  const [editing, setEditing] = useState<number | null>(null);
  const [order, setOrderState] = useState<TimelineOrder>(storedOrder);
  const rows = useMemo(() => timelineRows<CardEntry, ChangeEntry>(entries), [entries]);
  const newestFirst = useMemo(() => rowBlocks(rows), [rows]);
  const oldestFirst = order === 'oldest-first';
  const blocks = useMemo(() => (oldestFirst ? [...newestFirst].reverse() : newestFirst), [newestFirst, oldestFirst]);
  const composerBox = useRef<HTMLDivElement>(null);
  // Oldest first, the newest entries and the composer are at the end: the page opens there.
  useEffect(() => {
    if (!oldestFirst) return;
    const box = composerBox.current?.getBoundingClientRect();
    if (box && box.bottom > window.innerHeight) composerBox.current?.scrollIntoView({ block: 'end' });
    // Once per ticket (this view is keyed by ticket) and order.
  }, [oldestFirst]);
  function setOrder(next: TimelineOrder) {
    setOrderState(next);
    try {
      localStorage.setItem(ORDER_KEY, next);
    } catch {
      // No storage: the order lasts this page.
    }
  }
  // Stable callbacks for the memoized rows: the latest actions through a ref.
  const latest = useRef(actions);
  useEffect(() => {
    latest.current = actions;
  });
  const rowActions = useMemo<RowActions>(
    () => ({
      startEdit: (id) => setEditing(id),
      cancelEdit: () => setEditing(null),
      save: async (id, body) => {
        await latest.current.edit(id, body);
        setEditing(null);
      },
      confirmDelete: (id) => latest.current.confirmDelete(id),
    }),
    [],
  );

  const composerElement = (
    <div className="timeline-composer" ref={composerBox}>
      <Composer {...composer} onNote={(body) => actions.add(body)} />
    </div>
  );

  return (
    <section className="timeline" aria-labelledby="timeline-heading">
      <header className="timeline-header">
        <h2 id="timeline-heading">Timeline</h2>
        <div className="chip-group" role="group" aria-label="Show">
          {FILTERS.map((option) => (
            <button key={option.value} type="button" className="chip" aria-pressed={filter === option.value} onClick={() => onFilter(option.value)}>
              {option.label}
            </button>
          ))}
        </div>
        <div className="chip-group timeline-order" role="group" aria-label="Order">
          {ORDERS.map((option) => (
            <button key={option.value} type="button" className="chip" aria-pressed={order === option.value} onClick={() => setOrder(option.value)}>
              {option.label}
            </button>
          ))}
        </div>
      </header>
      {!oldestFirst && composerElement}
      {oldestFirst && hasOlder && <LoadOlder count={entries.length} loadOlder={loadOlder} />}
      {rows.length === 0 ? (
        <p className="timeline-empty muted">{loading ? 'Loading...' : EMPTY[filter]}</p>
      ) : (
        <ol className="timeline-list" aria-busy={!!loading} aria-label={`Timeline: ${FILTERS.find((option) => option.value === filter)!.label.toLowerCase()}`}>
          {blocks.map((block) => (
            <RowBlock key={block.key} rows={block.rows} reversed={oldestFirst} meId={meId} editing={editing} actions={rowActions} />
          ))}
        </ol>
      )}
      {!oldestFirst && hasOlder && <LoadOlder count={entries.length} loadOlder={loadOlder} />}
      {oldestFirst && composerElement}
    </section>
  );
}

type Row = TimelineRow<CardEntry, ChangeEntry>;

/** The same row: the same key over the same entries (rows are rebuilt on every change of the list). */
function sameRow(before: Row, after: Row): boolean {
  if (before.key !== after.key) return false;
  if (before.type === 'note') return after.type === 'note' && before.note === after.note;
  return (
    after.type === 'changes' &&
    before.at === after.at &&
    before.changes.length === after.changes.length &&
    before.changes.every((change, index) => change === after.changes[index])
  );
}

interface RowBlockProps {
  rows: readonly Row[];
  /** Oldest first: the block's rows (held newest first) are shown the other way round. */
  reversed: boolean;
  meId: number;
  editing: number | null;
  actions: RowActions;
}

/**
 * A block of rows, straight into the list (a fragment: the list's items stay its children). An entry arriving on top
 * changes the newest block only: React compares the blocks' rows here and renders none of the other blocks, instead
 * of reconciling thousands of rows one by one on every live entry (bench 10e). Blocks follow seqs, not
 * positions, so loading older entries at the end leaves every block above as it was.
 */
const RowBlock = memo(
  function RowBlock({ rows, reversed, meId, editing, actions }: RowBlockProps) {
    const context = { meId, editing, actions };
    return (reversed ? [...rows].reverse() : rows).map((row) =>
      row.type === 'note' ? (
        presentCard(row.note, row.key, context)
      ) : (
        <ChangeRow key={row.key} actor={row.actor} via={row.via} at={row.at} changes={row.changes} />
      ),
    );
  },
  (before, after) =>
    before.meId === after.meId &&
    before.reversed === after.reversed &&
    before.editing === after.editing &&
    before.actions === after.actions &&
    before.rows.length === after.rows.length &&
    before.rows.every((row, index) => sameRow(row, after.rows[index])),
);

const EMPTY: Record<TimelineFilterValue, string> = {
  ALL: 'No notes or changes yet.',
  NOTES: 'No notes yet.',
  CHANGES: 'No changes yet.',
  REPLIES: 'No replies yet.',
};

/**
 * The end of the list: loads the next older page when it scrolls into view, and is a button for the keyboard (and
 * for a browser without IntersectionObserver). Watching again after each page means a short page that leaves the
 * end in view loads the next one too.
 */
function LoadOlder({ count, loadOlder }: { count: number; loadOlder: () => Promise<unknown> }) {
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const end = useRef<HTMLDivElement>(null);
  const busy = useRef(false);

  async function next(): Promise<void> {
    if (busy.current) return;
    busy.current = true;
    setLoading(true);
    setFailed(null);
    try {
      await loadOlder();
    } catch (error) {
      setFailed(problemText(loadProblem(error), 'older entries', error).detail);
    } finally {
      busy.current = false;
      setLoading(false);
    }
  }
  const onSeen = useEffectEvent(() => void next());

  // After a failure only the button tries again (no retry loop while the end stays in view).
  useEffect(() => {
    const target = end.current;
    if (!target || typeof IntersectionObserver === 'undefined' || failed) return;
    const observer = new IntersectionObserver(
      (seen) => {
        if (seen.some((entry) => entry.isIntersecting)) onSeen();
      },
      { rootMargin: LOAD_OLDER_MARGIN },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [count, failed]);

  return (
    <div className="timeline-end" ref={end}>
      {failed && (
        <p className="form-error" role="alert">
          {failed}
        </p>
      )}
      <button type="button" className="button button-secondary" onClick={() => void next()} aria-disabled={loading} aria-busy={loading}>
        {loading ? 'Loading...' : 'Load older entries'}
      </button>
    </div>
  );
}
