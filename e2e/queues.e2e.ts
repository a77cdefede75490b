/**
 * Shared queues in the browser: an admin makes a team of two agents on the Admin page (its messages, the
 * confirm of a removal, the last admin kept, axe-clean); the create form places a ticket in the agent's team; one
 * agent takes an unassigned ticket of the team while the other's open page follows it, and the other's own take,
 * which came second, is told who took it; an admin's reassignment to a team the agent is not in turns the agent's
 * open ticket page into "Not found". Waits are for states (bounded by the context's timeout), never for times.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { MESSAGES } from '@fulcrum/schema/validation';
import { axeViolations, blocking } from './axe';
import { useBrowser, type OpenedPage } from './browser';
import { createTicketApi, demoLogin, gone, gql, makePng, pickRequester, shown, unique } from './helpers';
import { liveConnected } from './liveHelpers';

const chromium = useBrowser();

interface Member extends OpenedPage {
  id: number;
  name: string;
}

let admin: OpenedPage;
let ann: Member;
let ben: Member;
const teamA = unique('Queue A');
const teamB = unique('Queue B');
let teamAId = 0;

/** A new agent, signed up (and so signed in) in a context of their own. */
async function signUp(label: string): Promise<Member> {
  const opened = await chromium.open();
  const name = unique(label).replace(/\W/g, '').slice(0, 30);
  const { signup } = await gql<{ signup: { id: number } }>(opened.page, 'mutation($input: SignupInput!) { signup(input: $input) { id } }', {
    input: { email: `${name.toLowerCase()}@queues.test`, username: name, password: 'queues-pw' },
  });
  return { ...opened, id: signup.id, name };
}

const teamCard = (page: Page, name: string) => page.locator('.team-card').filter({ has: page.getByRole('heading', { name, exact: true }) });
const detail = (page: Page, term: string) =>
  page
    .locator('.detail-list > div')
    .filter({ has: page.locator('dt', { hasText: new RegExp(`^${term}$`) }) })
    .locator('dd');

async function addMember(page: Page, team: string, member: string): Promise<void> {
  const card = teamCard(page, team);
  await card.getByLabel(`Add a member to ${team}`).selectOption({ label: member });
  await card.getByRole('button', { name: 'Add' }).click();
  await shown(card.getByRole('list', { name: `Members of ${team}` }).getByText(member, { exact: true }));
}

beforeAll(async () => {
  admin = await chromium.open();
  await demoLogin(admin.page);
  ann = await signUp('Ann');
  ben = await signUp('Ben');
});

afterAll(() => {
  for (const opened of [admin, ann, ben]) expect(opened?.errors ?? []).toEqual([]);
});

describe('the Admin page', () => {
  it('is in the admin’s navigation; an agent who opens it is told only admins manage teams', async () => {
    await admin.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).click();
    await shown(admin.page.getByRole('heading', { name: 'Admin', level: 1 }));
    await ann.page.goto('/view/tickets/all');
    await shown(ann.page.getByRole('heading', { name: /Open Tickets/ }));
    expect(await ann.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).count()).toBe(0);
    await ann.page.goto('/admin');
    await shown(ann.page.getByRole('heading', { name: 'Only admins can manage teams' }));
  });

  it('creates teams (the shared messages), adds two agents, removes one after a confirm', async () => {
    const page = admin.page;
    const name = page.getByLabel('Team name');
    await page.getByRole('button', { name: 'Create team' }).click();
    await shown(page.getByText(MESSAGES.teamName));
    for (const team of [teamA, teamB]) {
      await name.fill(team);
      await page.getByRole('button', { name: 'Create team' }).click();
      await shown(teamCard(page, team));
      expect(await name.inputValue()).toBe('');
    }
    await name.fill(teamA);
    await page.getByRole('button', { name: 'Create team' }).click();
    await shown(page.getByText(MESSAGES.teamNameTaken));

    await addMember(page, teamA, ann.name);
    await addMember(page, teamA, ben.name);
    // Ben in team B, then out again: the confirm names what happens.
    await addMember(page, teamB, ben.name);
    await teamCard(page, teamB)
      .getByRole('button', { name: `Remove ${ben.name} from ${teamB}` })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Remove Member' });
    await shown(dialog.getByText(`Remove ${ben.name} from ${teamB}?`));
    await dialog.getByRole('button', { name: 'Remove Member' }).click();
    await gone(dialog);
    await shown(teamCard(page, teamB).getByText('No members yet.'));
    // Team B assigns new tickets automatically, then not (the box follows the server's answer).
    const auto = teamCard(page, teamB).getByRole('checkbox', { name: 'Assign new tickets automatically' });
    expect(await auto.isChecked()).toBe(false);
    await auto.click(); // controlled by the server's answer: not checked until it comes
    // The box is checked once the server answered (it follows Team.autoAssign in the cache), and disabled meanwhile.
    await shown(teamCard(page, teamB).locator('input[type="checkbox"]:checked:not(:disabled)'));
    const on = await gql<{ teams: { name: string; autoAssign: boolean }[] }>(page, '{ teams { name autoAssign } }');
    expect(on.teams.find((t) => t.name === teamB)?.autoAssign).toBe(true);
    await auto.click();
    await shown(teamCard(page, teamB).locator('input[type="checkbox"]:not(:checked):not(:disabled)'));

    const { teams } = await gql<{ teams: { id: number; name: string; memberIds: number[]; autoAssign: boolean }[] }>(
      page,
      '{ teams { id name memberIds autoAssign } }',
    );
    const a = teams.find((t) => t.name === teamA)!;
    const b = teams.find((t) => t.name === teamB)!;
    expect(a.memberIds).toEqual([ann.id, ben.id]);
    expect(b.memberIds).toEqual([]);
    expect([a.autoAssign, b.autoAssign]).toEqual([false, false]);
    teamAId = a.id;
  });

  it('sets roles; demoting the last admin shows the server’s message and changes nothing', async () => {
    const page = admin.page;
    const { users } = await gql<{ users: { nodes: { id: number; role: string }[] } }>(page, '{ users(first: 100) { nodes { id role } } }');
    // The demo seed's one admin (no other e2e file makes one): the refusal below depends on it.
    expect(users.nodes.filter((u) => u.role === 'ADMIN').map((u) => u.id)).toEqual([1]);
    const benRole = page.getByLabel(`Role of ${ben.name}`);
    for (const role of ['ADMIN', 'AGENT']) {
      const answered = page.waitForResponse((r) => r.url().endsWith('/graphql') && !!r.request().postData()?.includes('SetUserRole'));
      await benRole.selectOption(role);
      await answered;
    }
    const demoRole = page.getByLabel('Role of Demo');
    await demoRole.selectOption('AGENT');
    await shown(page.getByRole('alert').filter({ hasText: MESSAGES.lastAdmin }));
    expect(await demoRole.inputValue()).toBe('ADMIN');
    const after = await gql<{ users: { nodes: { id: number; role: string }[] } }>(page, '{ users(first: 100) { nodes { id role } } }');
    expect(after.users.nodes.find((u) => u.id === ben.id)?.role).toBe('AGENT');
    expect(after.users.nodes.find((u) => u.id === 1)?.role).toBe('ADMIN');
  });

  it('passes axe (WCAG 2.1 A and AA), with a team and the agents listed', async () => {
    await admin.page.reload();
    await shown(teamCard(admin.page, teamA));
    const violations = blocking(await axeViolations(admin.page));
    expect(violations.map((v) => `${v.id}: ${v.help}\n  ${v.nodes.join('\n  ')}`)).toEqual([]);
  });
});

describe('tickets of the team', () => {
  it('the create form preselects the agent’s team and "Me", and offers Unassigned and the other member', async () => {
    const page = ann.page;
    await page.goto('/create/ticket');
    const team = page.getByLabel('Team');
    await shown(team);
    expect(await team.locator('option:checked').innerText()).toBe(teamA);
    expect(await team.locator('option').allInnerTexts()).toEqual(['No team (private)', teamA]);
    const assignee = page.getByLabel('Assignee');
    expect(await assignee.locator('option:checked').innerText()).toBe(`Me (${ann.name})`);
    expect(await assignee.locator('option').allInnerTexts()).toEqual([`Me (${ann.name})`, 'Unassigned', ben.name]);
    await team.selectOption({ label: 'No team (private)' });
    expect(await assignee.locator('option').allInnerTexts()).toEqual([`Me (${ann.name})`]);
    await team.selectOption({ label: teamA });
    await assignee.selectOption({ label: 'Unassigned' });

    const title = unique('Form queue').slice(0, 40);
    await page.getByLabel('Title').fill(title);
    await pickRequester(page);
    await page.getByLabel('Description').fill('Made in the team, for whoever is free.');
    await page.getByLabel('Image').setInputFiles({ name: 'q.png', mimeType: 'image/png', buffer: makePng(8, 8, [20, 120, 200]) });
    await page.getByRole('button', { name: 'Create Ticket' }).click();
    await page.waitForURL('**/view/tickets/all');
    const { tickets } = await gql<{ tickets: { nodes: { title: string; teamId: number | null; assigneeId: number | null }[] } }>(
      page,
      '{ tickets(first: 20) { nodes { title teamId assigneeId } } }',
    );
    expect(tickets.nodes.find((t) => t.title === title)).toEqual({ title, teamId: teamAId, assigneeId: null });
  });

  it('one agent takes it, the other’s open page follows; the other’s take came second and says who took it', async () => {
    const title = unique('Queue take').slice(0, 40);
    const ticketId = await createTicketApi(admin.page, { title, requesterId: 1, description: 'Unassigned in the team.' }, [10, 10, 10], { teamId: teamAId });
    for (const member of [ann, ben]) {
      await member.page.goto(`/view/ticket/${ticketId}`);
      await liveConnected(member.page);
      await shown(member.page.getByRole('heading', { name: 'Ticket Details' }));
      expect(await detail(member.page, 'Team').innerText()).toBe(teamA);
      expect(await detail(member.page, 'Assignee').innerText()).toBe('Unassigned');
    }

    // Ben's take is held on its way until Ann's has been made and has reached Ben's page.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await ben.page.route('**/graphql', async (route) => {
      if (route.request().postData()?.includes('TakeTicket')) await held;
      await route.continue();
    });
    await ben.page.getByRole('button', { name: 'Take' }).click();
    await ann.page.getByRole('button', { name: 'Take' }).click();
    await shown(detail(ann.page, 'Assignee').getByText(ann.name, { exact: true }));
    // Ann's take reaches Ben's open page live.
    await shown(detail(ben.page, 'Assignee').getByText(ann.name, { exact: true }));
    expect(await ann.page.getByRole('button', { name: 'Take' }).count()).toBe(0);
    release();
    await shown(ben.page.getByText(`${ann.name} took this ticket just now.`));
    await ben.page.unroute('**/graphql');
    expect(await detail(ben.page, 'Assignee').innerText()).toBe(ann.name);
    const { ticket } = await gql<{ ticket: { assigneeId: number; version: number } }>(ann.page, 'query($id: Int!) { ticket(id: $id) { assigneeId version } }', {
      id: ticketId,
    });
    expect(ticket.assigneeId).toBe(ann.id);

    // Ann's dashboard ("My tickets") holds it.
    await ann.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
    await shown(ann.page.locator('.ticket-subject', { hasText: title }));
    await ann.page.goBack();
    await shown(ann.page.getByRole('heading', { name: 'Ticket Details' }));
    await liveConnected(ann.page);

    // The admin gives it to team B (Ann is not in it) on the ticket page: Ann's and Ben's open pages say it is gone.
    await admin.page.goto(`/view/ticket/${ticketId}`);
    await shown(admin.page.getByRole('heading', { name: 'Ticket Details' }));
    await admin.page.getByRole('button', { name: 'Assign…' }).click();
    const form = admin.page.getByRole('form', { name: 'Assign ticket' });
    await form.getByLabel('Team').selectOption({ label: teamB });
    expect(await form.getByLabel('Assign to').inputValue()).toBe('');
    await form.getByRole('button', { name: 'Assign' }).click();
    await shown(detail(admin.page, 'Team').getByText(teamB, { exact: true }));
    expect(await detail(admin.page, 'Assignee').innerText()).toBe('Unassigned');
    for (const member of [ann, ben]) {
      await shown(member.page.getByRole('heading', { name: 'Not found' }));
      expect(await member.page.getByRole('heading', { name: 'Ticket Details' }).count()).toBe(0);
    }
  });
});
