import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  actorName,
  filterFromParam,
  filterHolds,
  mergeBySeq,
  paramOfFilter,
  rowBlocks,
  timelineRows,
  type ChangeValue,
  type NoteValue,
  viaWords,
} from './entries';

const T0 = Date.parse('2026-11-26T10:00:00.000Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();
const MARNIE = { kind: 'AGENT', name: 'Marnie', user: { id: 2 } };
const DEMO = { kind: 'AGENT', name: 'Demo', user: { id: 1 } };

function change(
  seq: number,
  seconds: number,
  actor = MARNIE,
  changes: ChangeValue['changes'] = [{ field: 'priority', from: 'High', to: 'Urgent' }],
  via = 'WEB',
): ChangeValue {
  return { __typename: 'TicketChange', seq, at: at(seconds), kind: 'UPDATED', actor, via, changes };
}
const note = (seq: number, seconds: number): NoteValue => ({ __typename: 'TicketNote', seq, at: at(seconds) });

describe('change lines', () => {
  it('names the actor and the door', () => {
    expect(actorName({ kind: 'SYSTEM', name: '' })).toBe('Fulcrum');
    expect(actorName(MARNIE)).toBe('Marnie');
    expect([viaWords('WEB'), viaWords('API_TOKEN'), viaWords('REST'), viaWords('SYSTEM')]).toEqual(['', 'with an API token', 'through the REST API', '']);
  });
});

describe('timeline rows', () => {
  it('keeps a creation on a row of its own', () => {
    const created: ChangeValue = { ...change(3, 0), kind: 'CREATED' };
    const rows = timelineRows([change(5, 20), change(4, 10), created]);
    expect(rows.map((row) => (row.type === 'changes' ? row.changes.map((c) => c.seq) : row.note.seq))).toEqual([[5, 4], [3]]);
  });

  it('groups consecutive changes by one actor within a minute', () => {
    const rows = timelineRows([change(6, 50), change(5, 30), change(4, 0), change(3, -30, DEMO)]);
    expect(rows.map((row) => (row.type === 'changes' ? row.changes.map((c) => c.seq) : row.note.seq))).toEqual([[6, 5, 4], [3]]);
    expect(rows[0]).toMatchObject({ key: 'c4', at: at(50), actor: MARNIE });
  });

  it('starts a new group past a minute from its first change, at a note, at another actor and at another door', () => {
    const rows = timelineRows([
      change(8, 201, MARNIE, undefined, 'REST'),
      change(7, 200),
      change(6, 139),
      note(5, 130),
      change(4, 120),
      change(3, 110, DEMO),
      change(2, 100),
    ]);
    expect(rows.map((row) => row.key)).toEqual(['c8', 'c7', 'c6', 'n5', 'c4', 'c3', 'c2']);
    // Within a minute of the group's first change, however many join it.
    expect(timelineRows([change(3, 60), change(2, 30), change(1, 0)]).map((row) => row.key)).toEqual(['c1']);
  });

  it('never regroups the rows below an entry that arrives on top', () => {
    const before = timelineRows([change(2, 40), change(1, 0)]);
    const after = timelineRows([change(3, 61), change(2, 40), change(1, 0)]);
    expect(before.map((row) => row.key)).toEqual(['c1']);
    expect(after.map((row) => row.key)).toEqual(['c3', 'c1']);
    expect(after[1]).toEqual(before[0]);
  });

  it('never drops or repeats an entry', () => {
    const entries = [note(9, 90), change(8, 80), change(7, 79, DEMO), change(6, 10), change(5, 9), note(4, 8), change(3, 1)];
    const seqs = timelineRows(entries).flatMap((row) => (row.type === 'note' ? [row.note.seq] : row.changes.map((c) => c.seq)));
    expect(seqs).toEqual([9, 8, 7, 6, 5, 4, 3]);
  });
});

/** A timeline of up to 400 entries (seqs 1..n, oldest first): notes, and changes by two actors seconds apart. */
const timelineArb = fc.array(fc.record({ isNote: fc.boolean(), demo: fc.boolean(), gap: fc.integer({ min: 0, max: 90 }) }), { maxLength: 400 }).map((specs) => {
  let seconds = 0;
  const entries = specs.map(({ isNote, demo, gap }, index) => {
    seconds += gap;
    return isNote ? note(index + 1, seconds) : change(index + 1, seconds, demo ? DEMO : MARNIE);
  });
  return entries.reverse();
});

const blockKeys = (entries: readonly (NoteValue | ChangeValue)[]) =>
  new Map(rowBlocks(timelineRows(entries)).map((block) => [block.key, block.rows.map((row) => row.key)]));

describe('row blocks', () => {
  it('hold every row once, in order', () => {
    fc.assert(
      fc.property(timelineArb, (entries) => {
        const rows = timelineRows(entries);
        const blocks = rowBlocks(rows);
        expect(blocks.flatMap((block) => block.rows)).toEqual(rows);
        expect(new Set(blocks.map((block) => block.key)).size).toBe(blocks.length);
      }),
    );
  });

  it('change only the newest block when an entry arrives on top, and only the oldest when older entries load', () => {
    fc.assert(
      fc.property(timelineArb, fc.integer({ min: 0, max: 400 }), (all, split) => {
        fc.pre(all.length >= 2);
        // Newest first: `shown` is what a page held, the rest the older entries it loads; the first entry arrives live.
        const cut = 1 + (split % (all.length - 1));
        const [live, ...held] = all.slice(0, cut);
        const before = blockKeys([...held]);
        const withLive = blockKeys([live, ...held]);
        const withOlder = blockKeys(all.slice(1));
        const newest = [...before.keys()][0];
        const oldest = [...before.keys()].at(-1);
        for (const [key, rows] of before) {
          if (key !== newest) expect(withLive.get(key)).toEqual(rows);
          if (key !== oldest) expect(withOlder.get(key)).toEqual(rows);
        }
      }),
    );
  });
});

describe('filter in the address', () => {
  it('round-trips each filter and reads anything else as All', () => {
    for (const filter of ['ALL', 'NOTES', 'CHANGES'] as const) expect(filterFromParam(paramOfFilter(filter))).toBe(filter);
    expect(paramOfFilter('ALL')).toBeNull();
    expect(filterFromParam('Notes')).toBe('NOTES');
    expect(filterFromParam('bogus')).toBe('ALL');
    expect(filterFromParam(null)).toBe('ALL');
  });

  it('knows which lists hold which entries', () => {
    expect(filterHolds('ALL', 'TicketNote') && filterHolds('ALL', 'TicketChange')).toBe(true);
    expect([filterHolds('NOTES', 'TicketNote'), filterHolds('NOTES', 'TicketChange')]).toEqual([true, false]);
    expect([filterHolds('CHANGES', 'TicketNote'), filterHolds('CHANGES', 'TicketChange')]).toEqual([false, true]);
  });
});

describe('merging live entries', () => {
  it('holds each seq once, newest first, the later copy winning', () => {
    const held = [
      { seq: 5, v: 'a' },
      { seq: 3, v: 'a' },
    ];
    expect(
      mergeBySeq(held, [
        { seq: 6, v: 'b' },
        { seq: 5, v: 'b' },
        { seq: 4, v: 'b' },
      ]),
    ).toEqual([
      { seq: 6, v: 'b' },
      { seq: 5, v: 'b' },
      { seq: 4, v: 'b' },
      { seq: 3, v: 'a' },
    ]);
  });
});
