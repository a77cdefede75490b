/**
 * Shared macros: who sees (uses), edits and deletes a PRIVATE, TEAM or EVERYONE macro; the default list stays the
 * caller's own and macro 1; sharing's input rules (a team the author is in; EVERYONE for admins). A real database
 * (SQLite, or PostgreSQL + Redis in the second pass).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, NO_MACRO_ID } from '../validation/rules.js';
import { openServiceKit, refused, type ServiceKit } from '../testing/services.js';
import { createMacro, deleteMacro, getMacro, listMacros, listMacrosPage, resolveUsableMacroId, updateMacro } from './macros.js';
import { addTeamMember, createTeam } from './teams.js';

let kit: ServiceKit;
let admin: number;
beforeAll(async () => {
  kit = await openServiceKit();
  admin = await kit.newAgent();
  await kit.rows(`update users set role = 'ADMIN' where id = ?`, [admin]);
});
afterAll(() => kit?.close());

async function newTeam(...members: number[]): Promise<number> {
  const team = await createTeam(kit.as(admin), `team ${Math.random().toString(36).slice(2, 10)}`);
  for (const m of members) await addTeamMember(kit.as(admin), team.id, m);
  return team.id;
}

const ids = async (viewer: number, includeShared: boolean) => (await listMacrosPage(kit.as(viewer), {}, includeShared)).nodes.map((m) => m.id);
const canUse = async (viewer: number, id: number) => {
  try {
    await getMacro(kit.as(viewer), id);
    return true;
  } catch {
    return false;
  }
};

describe('macro sharing', () => {
  it('PRIVATE: its author only; TEAM: members of its team, not another team; EVERYONE: every agent', async () => {
    const [author, mate, stranger] = [await kit.newAgent(), await kit.newAgent(), await kit.newAgent()];
    const team = await newTeam(author, mate);
    await newTeam(stranger);
    const own = await createMacro(kit.as(author), { name: 'Mine', description: 'private text' });
    const shared = await createMacro(kit.as(author), { name: 'Ours', description: 'team text', sharing: 'TEAM', teamId: team });
    const everyone = await createMacro(kit.as(admin), { name: 'All', description: 'for all', sharing: 'EVERYONE' });
    expect(own).toMatchObject({ sharing: 'PRIVATE', teamId: null });
    expect(shared).toMatchObject({ sharing: 'TEAM', teamId: team, ownerId: author });

    expect(await ids(author, true)).toEqual(expect.arrayContaining([own.id, shared.id, everyone.id, NO_MACRO_ID]));
    const mates = await ids(mate, true);
    expect(mates).toEqual(expect.arrayContaining([shared.id, everyone.id, NO_MACRO_ID]));
    expect(mates).not.toContain(own.id);
    const strangers = await ids(stranger, true);
    expect(strangers).toEqual(expect.arrayContaining([everyone.id, NO_MACRO_ID]));
    expect(strangers).not.toContain(own.id);
    expect(strangers).not.toContain(shared.id);

    expect([await canUse(mate, shared.id), await canUse(mate, own.id), await canUse(stranger, shared.id), await canUse(stranger, everyone.id)]).toEqual([
      true,
      false,
      false,
      true,
    ]);
    expect([await resolveUsableMacroId(kit.as(mate), shared.id), await resolveUsableMacroId(kit.as(stranger), shared.id)]).toEqual([shared.id, null]);
    expect(await resolveUsableMacroId(kit.as(stranger), everyone.id)).toBe(everyone.id);
    // Over REST the caller's own only, as the contract's macro rule has it.
    expect(await resolveUsableMacroId(kit.as(mate, 'REST'), shared.id)).toBeNull();
  });

  it("the default list (and the REST list) stays the caller's own and macro 1", async () => {
    const [author, mate] = [await kit.newAgent(), await kit.newAgent()];
    const team = await newTeam(author, mate);
    const own = await createMacro(kit.as(mate), { name: 'Own one', description: 'x' });
    await createMacro(kit.as(author), { name: 'Team one', description: 'y', sharing: 'TEAM', teamId: team });
    await createMacro(kit.as(admin), { name: 'Every one', description: 'z', sharing: 'EVERYONE' });
    expect(await ids(mate, false)).toEqual([own.id, NO_MACRO_ID]);
    expect((await listMacros(kit.as(mate))).map((m) => m.id)).toEqual([own.id, NO_MACRO_ID]);
  });

  it('who may edit and delete: the author and admins; others who may use it are FORBIDDEN, others NOT_FOUND', async () => {
    const [author, mate, stranger] = [await kit.newAgent(), await kit.newAgent(), await kit.newAgent()];
    const team = await newTeam(author, mate);
    const shared = await createMacro(kit.as(author), { name: 'Ours', description: 'team text', sharing: 'TEAM', teamId: team });
    const edit = { name: 'Changed', description: 'changed' };
    const forbidden = await refused(updateMacro(kit.as(mate), shared.id, edit));
    expect([forbidden.code, forbidden.message]).toEqual(['FORBIDDEN', MESSAGES.macroNotYours]);
    expect((await refused(deleteMacro(kit.as(mate), shared.id))).code).toBe('FORBIDDEN');
    expect((await refused(updateMacro(kit.as(stranger), shared.id, edit))).code).toBe('NOT_FOUND');
    // An edit without sharing keeps it.
    expect(await updateMacro(kit.as(author), shared.id, edit)).toMatchObject({ name: 'Changed', sharing: 'TEAM', teamId: team });
    expect(await updateMacro(kit.as(admin), shared.id, { name: 'By admin', description: 'a' })).toMatchObject({ name: 'By admin', ownerId: author });
    // A private macro stays its author's, even for an admin.
    const own = await createMacro(kit.as(author), { name: 'Mine', description: 'p' });
    expect((await refused(updateMacro(kit.as(admin), own.id, edit))).code).toBe('NOT_FOUND');
    expect((await deleteMacro(kit.as(admin), shared.id)).id).toBe(shared.id);
  });

  it('sharing input: TEAM needs a team of the author (field error), EVERYONE needs an admin (FORBIDDEN), other values refused', async () => {
    const [author, other] = [await kit.newAgent(), await kit.newAgent()];
    const notMine = await newTeam(other);
    const notMember = await refused(createMacro(kit.as(author), { name: 'Sneaky', description: 'x', sharing: 'TEAM', teamId: notMine }));
    expect([notMember.code, notMember.fields]).toEqual(['BAD_USER_INPUT', { teamId: [MESSAGES.macroTeam] }]);
    const noTeam = await refused(createMacro(kit.as(author), { name: 'Sneaky', description: 'x', sharing: 'TEAM' }));
    expect(noTeam.fields).toEqual({ teamId: [MESSAGES.macroTeam] });
    const wide = await refused(createMacro(kit.as(author), { name: 'Wide', description: 'x', sharing: 'EVERYONE' }));
    expect([wide.code, wide.message]).toEqual(['FORBIDDEN', MESSAGES.macroEveryone]);
    const odd = await refused(createMacro(kit.as(author), { name: 'x', description: 'x', sharing: 'PUBLIC' }));
    expect(odd.fields).toEqual({ name: [MESSAGES.macroName], sharing: [MESSAGES.macroSharing] });
    const [row] = await kit.rows<{ n: number | string }>('select count(*) as n from macros where owner_id = ?', [author]);
    expect(Number(row.n)).toBe(0);
  });
});
