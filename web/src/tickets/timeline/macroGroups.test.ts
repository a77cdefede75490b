import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { macroGroups, NO_MACRO_ID, type PickerMacro } from './macroGroups';

const ME = 7;
const macro = (id: number, extra: Partial<PickerMacro> = {}): PickerMacro => ({
  id,
  name: `M${id}`,
  description: 'text',
  ownerId: ME,
  sharing: 'PRIVATE',
  ...extra,
});

describe('the macro picker’s groups', () => {
  it('are Mine, each team by name, then Everyone; macro 1 is never offered', () => {
    const groups = macroGroups(
      [
        macro(NO_MACRO_ID, { ownerId: null, sharing: 'EVERYONE' }),
        macro(2),
        macro(3, { ownerId: 9, sharing: 'TEAM', team: { id: 2, name: 'Tier 2' } }),
        macro(4, { ownerId: 9, sharing: 'EVERYONE' }),
        macro(5, { ownerId: 8, sharing: 'TEAM', team: { id: 1, name: 'Tier 1' } }),
        // The viewer's own team macro is theirs: under Mine.
        macro(6, { sharing: 'TEAM', team: { id: 1, name: 'Tier 1' } }),
      ],
      ME,
    );
    expect(groups.map((group) => [group.heading, group.macros.map((m) => m.id)])).toEqual([
      ['Mine', [2, 6]],
      ['Tier 1', [5]],
      ['Tier 2', [3]],
      ['Everyone', [4]],
    ]);
    expect(macroGroups([macro(NO_MACRO_ID, { ownerId: null })], ME)).toEqual([]);
  });

  it('offers every macro but macro 1 exactly once, in a non-empty group', () => {
    const anyMacro = fc.record({
      id: fc.integer({ min: 1, max: 60 }),
      name: fc.string(),
      description: fc.string(),
      ownerId: fc.option(fc.integer({ min: 6, max: 9 }), { nil: null }),
      sharing: fc.constantFrom('PRIVATE', 'TEAM', 'EVERYONE'),
      team: fc.option(fc.record({ id: fc.integer({ min: 1, max: 3 }), name: fc.constantFrom('Tier 1', 'Tier 2', 'Billing') }), { nil: null }),
    });
    fc.assert(
      fc.property(fc.uniqueArray(anyMacro, { selector: (m) => m.id, maxLength: 20 }), (macros) => {
        const groups = macroGroups(macros, ME);
        const offered = groups.flatMap((group) => group.macros.map((m) => m.id)).sort((a, b) => a - b);
        expect(offered).toEqual(
          macros
            .map((m) => m.id)
            .filter((id) => id !== NO_MACRO_ID)
            .sort((a, b) => a - b),
        );
        expect(groups.every((group) => group.macros.length > 0)).toBe(true);
        const headings = groups.map((g) => g.heading);
        if (headings.includes('Mine')) expect(headings[0]).toBe('Mine');
        if (headings.includes('Everyone')) expect(headings.at(-1)).toBe('Everyone');
        // A macro of someone else's is never under Mine.
        expect(groups.find((g) => g.heading === 'Mine')?.macros.every((m) => m.ownerId === ME) ?? true).toBe(true);
      }),
    );
  });
});
