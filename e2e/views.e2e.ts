/**
 * Views in the browser: two agents of a team have the team's Unassigned view open, with the sidebar's
 * live counts. One takes a ticket from the list ("Take"); the colleague's sidebar count drops and the ticket
 * leaves their Unassigned view, without a reload. The sidebar is reached and used from the keyboard, and the page
 * passes axe; views gained, renamed and lost reach an open sidebar. Waits are for states (bounded by the context's
 * timeout), never for times.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page, Request } from 'playwright-core';
import { axeViolations, blocking } from './axe';
import { useBrowser, type OpenedPage } from './browser';
import { createTicketApi, demoLogin, gone, gql, shown, unique } from './helpers';
import { liveConnected, markDocument, sameDocument } from './liveHelpers';

const chromium = useBrowser();

interface Member extends OpenedPage {
  id: number;
  name: string;
}

let admin: OpenedPage;
let ann: Member;
let ben: Member;
const teamName = unique('Views');
let teamId = 0;

async function signUp(label: string): Promise<Member> {
  const opened = await chromium.open();
  const name = unique(label).replace(/\W/g, '').slice(0, 30);
  const { signup } = await gql<{ signup: { id: number } }>(opened.page, 'mutation($input: SignupInput!) { signup(input: $input) { id } }', {
    input: { email: `${name.toLowerCase()}@views.test`, username: name, password: 'views-pw' },
  });
  return { ...opened, id: signup.id, name };
}

const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Views' });
const viewLink = (page: Page, name: string) => sidebar(page).getByRole('link', { name: new RegExp(`^${name} \\d+ tickets?$`) });
const countOf = async (page: Page, viewId: number) => Number((await page.getByTestId(`view-count-${viewId}`).innerText()).split(/\s/)[0]);
const rowOf = (page: Page, ticketId: number) => page.locator('tr.ticket-row').filter({ has: page.getByRole('link', { name: `#${ticketId}`, exact: true }) });

beforeAll(async () => {
  admin = await chromium.open();
  await demoLogin(admin.page);
  ann = await signUp('Ann');
  ben = await signUp('Ben');
  teamId = (await gql<{ createTeam: { id: number } }>(admin.page, 'mutation($n: String!) { createTeam(name: $n) { id } }', { n: teamName })).createTeam.id;
  for (const member of [ann, ben])
    await gql(admin.page, 'mutation($t: Int!, $u: Int!) { addTeamMember(teamId: $t, userId: $u) { id } }', { t: teamId, u: member.id });
});

afterAll(() => {
  for (const opened of [admin, ann, ben]) expect(opened?.errors ?? []).toEqual([]);
});

describe('views', () => {
  it("an agent takes a ticket from the Unassigned view; the colleague's count drops and the ticket leaves their view", async () => {
    const unassigned = -2 * teamId;
    const title = unique('Grab me').slice(0, 40);
    const ticketId = await createTicketApi(admin.page, { title, requesterId: 1, description: 'Unassigned in the team.' }, [20, 20, 20], { teamId });
    for (const member of [ann, ben]) {
      await member.page.goto(`/view/tickets/all?view=${unassigned}`);
      await liveConnected(member.page);
      await shown(member.page.getByRole('heading', { name: `(1) Unassigned in ${teamName}` }));
      await shown(rowOf(member.page, ticketId));
      expect(await countOf(member.page, unassigned)).toBe(1);
      expect(await viewLink(member.page, `Unassigned in ${teamName}`).getAttribute('aria-current')).toBe('page');
    }
    const row = rowOf(ann.page, ticketId);
    expect(await row.getByRole('cell').nth(3).innerText()).toContain('Unassigned');
    expect(await row.getByRole('cell').nth(4).innerText()).toContain(teamName);

    await row.getByRole('button', { name: `Take ticket ${ticketId}` }).click();
    // Ann's own view follows its count: the ticket leaves it, and My tickets has it.
    await gone(rowOf(ann.page, ticketId));
    await shown(ann.page.getByTestId('view-count--1').getByText(/^1/));
    // Ben's sidebar and list follow, live.
    await shown(ben.page.getByTestId(`view-count-${unassigned}`).getByText(/^0/));
    await gone(rowOf(ben.page, ticketId));
    await shown(ben.page.getByText(`No tickets in Unassigned in ${teamName}.`));
    // The team's unsolved view still holds it, with Ann as its assignee.
    expect(await countOf(ben.page, -(2 * teamId + 1))).toBe(1);
    await viewLink(ben.page, `${teamName} \\(unsolved\\)`).click();
    await shown(rowOf(ben.page, ticketId).getByText(ann.name));
    expect(await rowOf(ben.page, ticketId).getByRole('button', { name: /Take/ }).count()).toBe(0);
  });

  it('the sidebar works from the keyboard, and the page passes axe (WCAG 2.1 A and AA)', async () => {
    const page = ben.page;
    await page.goto('/view/tickets/all');
    await liveConnected(page);
    const unassignedLink = viewLink(page, `Unassigned in ${teamName}`);
    await unassignedLink.focus();
    await page.keyboard.press('Enter');
    await shown(page.getByRole('heading', { name: `(0) Unassigned in ${teamName}` }));
    expect(await unassignedLink.getAttribute('aria-current')).toBe('page');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent ?? '')).toContain(`${teamName} (unsolved)`);
    const violations = blocking(await axeViolations(page));
    expect(violations.map((v) => `${v.id}: ${v.help}\n  ${v.nodes.join('\n  ')}`)).toEqual([]);
  });

  it('saves the current list as a team view (the shared name rule first): the sidebar gains it with its count, and it is selected', async () => {
    const page = ann.page;
    const word = unique('zq').replace(/\W/g, '').toLowerCase();
    await createTicketApi(admin.page, { title: `About ${word}`.slice(0, 40), requesterId: 1, description: 'For a saved view.' }, [30, 30, 30], { teamId });
    await page.goto('/view/tickets/all');
    await liveConnected(page);
    await page.getByRole('button', { name: 'Save as view' }).click();
    const form = page.getByRole('form', { name: 'Save as view' });
    await form.getByRole('button', { name: 'Save view' }).click();
    await shown(form.getByText('View name must be 1 to 50 characters.'));
    await form.getByLabel('View name').fill(`Team ${word}`);
    await form.getByLabel('Scope').selectOption('TEAM');
    await form.getByLabel('Team', { exact: true }).selectOption({ label: teamName });
    await form.getByRole('button', { name: 'Save view' }).click();
    const link = viewLink(page, `Team ${word}`);
    await shown(link);
    expect(await link.getAttribute('aria-current')).toBe('page');
    // No filter of its own here (the search box was empty): the team's unsolved tickets, as the default view has them.
    expect(await countOf(page, Number(await link.getAttribute('data-view-id')))).toBe(await countOf(page, -(2 * teamId + 1)));
    const violations = blocking(await axeViolations(page));
    expect(violations.map((v) => `${v.id}: ${v.help}\n  ${v.nodes.join('\n  ')}`)).toEqual([]);
  });

  it("an open sidebar follows the agent's set of views: a team joined and a colleague's shared view arrive, and leave, without a reload", async () => {
    const page = ben.page;
    await page.goto('/view/tickets/all');
    await liveConnected(page);
    const otherTeam = unique('Joined');
    const otherId = (await gql<{ createTeam: { id: number } }>(admin.page, 'mutation($n: String!) { createTeam(name: $n) { id } }', { n: otherTeam }))
      .createTeam.id;
    const membership = (verb: 'addTeamMember' | 'removeTeamMember') =>
      gql(admin.page, `mutation($t: Int!, $u: Int!) { ${verb}(teamId: $t, userId: $u) { id } }`, { t: otherId, u: ben.id });
    await membership('addTeamMember');
    await shown(viewLink(page, `Unassigned in ${otherTeam}`));
    const name = unique('Shared').replace(/\W/g, '').slice(0, 40);
    const { createView } = await gql<{ createView: { id: number } }>(ann.page, 'mutation($i: ViewInput!) { createView(input: $i) { id } }', {
      i: { name, scope: 'TEAM', teamId, shared: true },
    });
    await shown(viewLink(page, `${name} \\(shared\\)`));
    await gql(ann.page, 'mutation($id: Int!) { deleteView(id: $id) }', { id: createView.id });
    await gone(viewLink(page, `${name} \\(shared\\)`));
    await membership('removeTeamMember');
    await gone(viewLink(page, `Unassigned in ${otherTeam}`));
    // Nothing was reloaded: the same document all along.
    expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(1);
  });

  it("a colleague renames a shared view: the open sidebar and the view's heading show the new name without a reload or a refetch", async () => {
    const page = ben.page;
    await page.goto('/view/tickets/all');
    await liveConnected(page);
    await markDocument(page);
    // The dashboard's query, each time the page sends it.
    let dashboardReads = 0;
    const noteRead = (request: Request) => {
      if (request.method() === 'POST' && request.url().endsWith('/graphql') && request.postData()?.includes('"operationName":"DashboardPage"'))
        dashboardReads++;
    };
    page.on('request', noteRead);
    const name = unique('Before').replace(/\W/g, '').slice(0, 40);
    const renamed = unique('After').replace(/\W/g, '').slice(0, 40);
    const input = { name, scope: 'TEAM', teamId, shared: true };
    const { createView } = await gql<{ createView: { id: number } }>(ann.page, 'mutation($i: ViewInput!) { createView(input: $i) { id } }', { i: input });
    // Gained: put in the cached list from the event itself, not by reading the dashboard again.
    await shown(viewLink(page, `${name} \\(shared\\)`));
    expect(dashboardReads).toBe(0);
    await viewLink(page, `${name} \\(shared\\)`).click();
    const heading = (text: string) => page.getByRole('heading', { name: new RegExp(`^\\(\\d+\\) ${text}$`) });
    await shown(heading(name));
    // Selecting it read its page (the count below would notice a refetch).
    expect(dashboardReads).toBeGreaterThan(0);
    const reads = dashboardReads;
    await gql(ann.page, 'mutation($id: Int!, $i: ViewInput!) { updateView(id: $id, input: $i) { id } }', { id: createView.id, i: { ...input, name: renamed } });
    const link = viewLink(page, `${renamed} \\(shared\\)`);
    await shown(link);
    await shown(heading(renamed));
    await gone(viewLink(page, `${name} \\(shared\\)`));
    expect(await link.getAttribute('aria-current')).toBe('page');
    expect(dashboardReads).toBe(reads);
    expect(await sameDocument(page)).toBe(true);
    await gql(ann.page, 'mutation($id: Int!) { deleteView(id: $id) }', { id: createView.id });
    await gone(link);
    page.off('request', noteRead);
  });

  it('a colleague changes the filter of a shared view that is open: the list follows, even when the count stays the same', async () => {
    const page = ben.page;
    const word = (label: string) => unique(label).replace(/\W/g, '').toLowerCase().slice(0, 30);
    const [first, second] = [word('alpha'), word('beta')];
    const ids: number[] = [];
    for (const w of [first, second])
      ids.push(await createTicketApi(admin.page, { title: `Filter ${w}`.slice(0, 40), requesterId: 1, description: `About ${w}.` }, [20, 20, 20], { teamId }));
    const name = unique('Filtered').replace(/\W/g, '').slice(0, 40);
    const input = { name, scope: 'TEAM', teamId, shared: true, filter: { search: first } };
    const { createView } = await gql<{ createView: { id: number } }>(ann.page, 'mutation($i: ViewInput!) { createView(input: $i) { id } }', { i: input });
    await page.goto(`/view/tickets/all?view=${createView.id}`);
    await liveConnected(page);
    await markDocument(page);
    await shown(rowOf(page, ids[0]));
    expect(await countOf(page, createView.id)).toBe(1);
    // One ticket out, another in: the count is 1 before and after.
    await gql(ann.page, 'mutation($id: Int!, $i: ViewInput!) { updateView(id: $id, input: $i) { id } }', {
      id: createView.id,
      i: { ...input, filter: { search: second } },
    });
    await shown(rowOf(page, ids[1]));
    await gone(rowOf(page, ids[0]));
    expect(await countOf(page, createView.id)).toBe(1);
    expect(await sameDocument(page)).toBe(true);
    await gql(ann.page, 'mutation($id: Int!) { deleteView(id: $id) }', { id: createView.id });
  });
});
