import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { historyPhrase, historySentence, mergedChanges, sentenceList, type HistoryEntry } from './history';

const updated = (...changes: HistoryEntry['changes']): HistoryEntry => ({ kind: 'UPDATED', changes });

describe('history sentences', () => {
  it('names the team and the agent of an assignment in one sentence', () => {
    const assignment = updated(
      { field: 'teamId', from: null, to: '1', fromLabel: null, toLabel: 'Tier 1' },
      { field: 'assigneeId', from: '1', to: '2', fromLabel: 'Demo', toLabel: 'Marnie' },
    );
    expect(historySentence([assignment])).toBe('moved it to Tier 1 and assigned it to Marnie');
  });

  it('reads the issue’s lines, newest entry first as the timeline holds them', () => {
    // "Demo set teamId 1, changed the assignee, changed the assignee": three entries of one row.
    const take = updated({ field: 'assigneeId', from: null, to: '1', toLabel: 'Demo' });
    const team = updated({ field: 'teamId', from: null, to: '1', toLabel: 'Tier 1' });
    const give = updated({ field: 'assigneeId', from: '1', to: '2', fromLabel: 'Demo', toLabel: 'Marnie' });
    expect(historySentence([give, take, team])).toBe('moved it to Tier 1 and assigned it to Marnie');
    const urgent = updated({ field: 'priority', from: 'Low', to: 'Urgent' });
    const typed = updated({ field: 'type', from: 'Question', to: 'Incident' });
    expect(historySentence([urgent, give, team])).toBe('moved it to Tier 1 and assigned it to Marnie, and changed the priority from Low to Urgent');
    expect(historySentence([typed, urgent, give, team])).toBe(
      'moved it to Tier 1 and assigned it to Marnie, changed the priority from Low to Urgent, and changed the type from Question to Incident',
    );
    expect(historySentence([updated({ field: 'priority', from: 'Low', to: 'Urgent' })])).toBe('changed the priority from Low to Urgent');
    expect(historySentence([updated({ field: 'macroId', from: '1', to: '4', fromLabel: 'No Macro', toLabel: 'Password reset' })])).toBe(
      'applied the macro Password reset',
    );
    expect(historySentence([updated({ field: 'status', from: 'OPEN', to: 'SOLVED' }), updated({ field: 'priority', from: 'Low', to: 'High' })])).toBe(
      'changed the priority from Low to High and changed the status from Open to Solved',
    );
  });

  it('says what changed without an id when the server gave no name', () => {
    expect(historyPhrase({ field: 'assigneeId', from: '1', to: '2' })).toBe('assigned it to someone else');
    expect(historyPhrase({ field: 'teamId', from: '1', to: null })).toBe('took it out of its team');
    expect(historyPhrase({ field: 'teamId', from: '1', to: null, fromLabel: 'Tier 1' })).toBe('took it out of Tier 1');
    expect(historyPhrase({ field: 'assigneeId', from: '2', to: null, fromLabel: 'Marnie' })).toBe('unassigned Marnie');
    expect(historyPhrase({ field: 'macroId', from: '4', to: '1', fromLabel: 'Password reset', toLabel: 'No Macro' })).toBe('removed the macro Password reset');
    expect(historyPhrase({ field: 'requesterId', from: '3', to: '5', fromLabel: 'Ada', toLabel: 'Bo' })).toBe('changed the requester from Ada to Bo');
    expect(historyPhrase({ field: 'title', from: 'Old', to: 'New' })).toBe('renamed it from “Old” to “New”');
    expect(historyPhrase({ field: 'title', from: 'Old', to: 'New', fromLabel: 'Old', toLabel: 'New' })).toBe('renamed it from “Old” to “New”');
    expect(historyPhrase({ field: 'status', from: 'OPEN', to: 'PENDING', fromLabel: 'Open', toLabel: 'Pending' })).toBe(
      'changed the status from Open to Pending',
    );
    expect(historyPhrase({ field: 'type', from: null, to: 'Task' })).toBe('set the type to Task');
    expect(historyPhrase({ field: 'image', from: null, to: '7' })).toBe('added an image');
    expect(historyPhrase({ field: 'description', from: null, to: null })).toBe('edited the description');
  });

  it('names the kinds that are no field change, and a creation alone', () => {
    const created = { kind: 'CREATED', changes: [{ field: 'title', from: null, to: 'A' }] };
    expect(historySentence([created])).toBe('created the ticket');
    expect(historySentence([updated({ field: 'priority', from: 'Low', to: 'High' }), created])).toBe(
      'created the ticket and changed the priority from Low to High',
    );
    expect(
      historySentence([
        { kind: 'NOTE_DELETED', changes: [] },
        { kind: 'NOTE_EDITED', changes: [] },
      ]),
    ).toBe('edited a note and deleted a note');
    expect(historySentence([updated({ field: 'priority', from: 'Low', to: 'High' }), updated({ field: 'priority', from: 'High', to: 'Low' })])).toBe(
      'updated the ticket',
    );
  });

  it('joins phrases as a sentence', () => {
    expect([sentenceList([]), sentenceList(['a']), sentenceList(['a', 'b']), sentenceList(['a', 'b', 'c'])]).toEqual(['', 'a', 'a and b', 'a, b and c']);
  });

  const fields = fc.constantFrom('teamId', 'assigneeId', 'macroId', 'requesterId', 'priority', 'type', 'status', 'title', 'description', 'image');
  const value = fc.option(fc.stringMatching(/^[0-9]{1,4}$/), { nil: null });
  const label = fc.option(fc.stringMatching(/^[A-Z][a-z]{2,8}$/), { nil: null });
  const change = fc.record({ field: fields, from: value, to: value, fromLabel: label, toLabel: label });
  const entry = fc.record({ kind: fc.constantFrom('UPDATED', 'NOTE_EDITED', 'HELD_ACCEPTED'), changes: fc.array(change, { maxLength: 4 }) });

  it('never shows a raw field name, an id without its name, or an empty sentence', () => {
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 5 }), (entries) => {
        const sentence = historySentence(entries);
        expect(sentence.length).toBeGreaterThan(0);
        expect(sentence).not.toMatch(/teamId|assigneeId|macroId|requesterId|undefined|null/);
        // An id field's value reads as its label or not at all (titles are quoted, so their digits may show).
        const idDigits = entries
          .flatMap((e) => e.changes)
          .some((c) => c.field === 'title' || c.field === 'priority' || c.field === 'type' || c.field === 'status');
        if (!idDigits) expect(sentence).not.toMatch(/[0-9]/);
      }),
    );
  });

  it('keeps each field once, from its first value to its last', () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 5 }), (entries) => {
        const merged = mergedChanges(entries);
        expect(new Set(merged.map((c) => c.field)).size).toBe(merged.length);
        for (const c of merged) {
          const all = entries.flatMap((e) => e.changes).filter((x) => x.field === c.field);
          expect(c.from).toBe(all[0].from);
          expect(c.to).toBe(all[all.length - 1].to);
        }
      }),
    );
  });
});
