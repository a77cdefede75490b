/** The macro picker's groups, as a pure function of the macros the agent may use (MacroPicker.tsx shows them). */

/** Macro 1, the built-in "No Macro": nothing to insert, never offered in the picker. */
export const NO_MACRO_ID = 1;

/** A macro as the picker groups it: the agent's own, a team's (shared with one of their teams), everyone's. */
export interface PickerMacro {
  id: number;
  name: string;
  description: string;
  ownerId?: number | null;
  /** PRIVATE (its author's), TEAM (its team's members'), EVERYONE. */
  sharing?: string;
  team?: { id: number; name: string } | null;
}

/** The picker's groups in order: "Mine", each team's name, "Everyone"; macro 1 ("No Macro") is never offered. */
export function macroGroups(macros: readonly PickerMacro[], meId: number): { heading: string; macros: PickerMacro[] }[] {
  const mine: PickerMacro[] = [];
  const teams = new Map<string, PickerMacro[]>();
  const everyone: PickerMacro[] = [];
  for (const macro of macros) {
    if (macro.id === NO_MACRO_ID) continue;
    if (macro.ownerId === meId) mine.push(macro);
    else if (macro.sharing === 'TEAM' && macro.team) teams.set(macro.team.name, [...(teams.get(macro.team.name) ?? []), macro]);
    else everyone.push(macro);
  }
  return [
    { heading: 'Mine', macros: mine },
    ...[...teams.keys()].sort((a, b) => a.localeCompare(b)).map((name) => ({ heading: name, macros: teams.get(name)! })),
    { heading: 'Everyone', macros: everyone },
  ].filter((group) => group.macros.length > 0);
}
