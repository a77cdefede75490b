/**
 * Ticket timeline: notes and changes under the ticket, live between two tabs, edited notes with their
 * earlier versions, tombstones, the filter in the address, paging, Markdown that never runs a script, keyboard and
 * axe. Waits are bounded by the context's timeout; how soon an entry shows is a bench figure, not a bound here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page, WebSocketRoute } from 'playwright-core';
import { blocking, axeViolations } from './axe';
import { useBrowser } from './browser';
import { gone, gql, shown, unique, createTicketApi } from './helpers';
import { anotherTab, DEMO, liveConnected, markDocument, sameDocument, signedIn, type Agent } from './liveHelpers';

const chromium = useBrowser();
let demo: Agent;
let tabB: Page;
let ticketId: number;
let path: string;

beforeAll(async () => {
  demo = await signedIn(chromium.browser, DEMO, '/view/tickets/all');
  ticketId = await createTicket(demo.page, unique('Timeline'));
  path = `/view/ticket/${ticketId}`;
  await demo.page.goto(path);
  await liveConnected(demo.page);
  tabB = await anotherTab(demo, path);
  // The first tab acts first (a background tab's frames are throttled, which slows every click there).
  await demo.page.bringToFront();
});

afterAll(async () => {
  await tabB?.close();
});

const timeline = (page: Page) => page.getByRole('region', { name: 'Timeline' });
/** A note of the timeline, by a text of its body. */
const note = (page: Page, text: string) => timeline(page).locator('.timeline-note', { has: page.locator('.note-body', { hasText: text }) });
const line = (page: Page, text: string | RegExp) => timeline(page).locator('.timeline-change', { hasText: text });
const tombstones = (page: Page) => timeline(page).locator('.timeline-tombstone');

async function addNote(page: Page, text: string): Promise<void> {
  const box = page.getByLabel('Add an internal note');
  await box.fill(text);
  // Ctrl+Enter sends; the composer empties once the server has the note.
  await box.press('Control+Enter');
  await page.waitForFunction(() => document.querySelector<HTMLTextAreaElement>('.composer textarea')?.value === '');
}

describe('ticket timeline between two tabs', () => {
  const first = unique('First note');
  const second = unique('Second note');
  const rewritten = unique('First note, rewritten');

  it('shows the creation of the ticket', async () => {
    await shown(line(demo.page, 'Demo created the ticket'));
    await shown(line(tabB, 'Demo created the ticket'));
  });

  it('a note added in one tab appears in the other, its Markdown rendered', async () => {
    await markDocument(tabB);
    await addNote(demo.page, `**${first}** and _more_`);
    await shown(note(demo.page, first));
    await shown(note(tabB, first).locator('strong', { hasText: first }));
    expect(await note(tabB, first).locator('em', { hasText: 'more' }).count()).toBe(1);
    // Added once in the tab that added it (its mutation and its own live event both bring it).
    await addNote(demo.page, second);
    await shown(note(tabB, second));
    expect(await note(demo.page, first).count()).toBe(1);
    expect(await sameDocument(tabB)).toBe(true);
  });

  it('a priority change in one tab appears as a line in the other', async () => {
    await demo.page.getByRole('link', { name: 'Edit' }).click();
    await demo.page.getByLabel('Priority').selectOption('Urgent');
    await demo.page.getByRole('button', { name: 'Save Ticket' }).click();
    await demo.page.waitForURL(`**${path}`);
    await shown(line(tabB, 'Demo changed the priority from Low to Urgent'));
    await shown(line(demo.page, 'Demo changed the priority from Low to Urgent'));
    expect(await sameDocument(tabB)).toBe(true);
  });

  it('an edit shows "edited" and the earlier version, in both tabs', async () => {
    await demo.page.bringToFront();
    const card = note(demo.page, first);
    await card.getByRole('button', { name: 'Edit note' }).click();
    await demo.page.getByLabel('Edit note').fill(rewritten);
    await demo.page.getByRole('button', { name: 'Save' }).click();
    await shown(note(demo.page, rewritten));
    for (const page of [demo.page, tabB]) {
      // Clicked in the tab in front (a background tab's frames are throttled).
      await page.bringToFront();
      const edited = note(page, rewritten);
      await shown(edited);
      await edited.locator('summary', { hasText: 'edited' }).click();
      await shown(edited.getByRole('list', { name: 'Earlier versions' }).locator('strong', { hasText: first }));
      // Its own line, or part of Demo's line of changes within a minute (grouped).
      await shown(line(page, /edited a note/));
    }
    expect(await note(tabB, first).count()).toBe(0);
  });

  it('a delete (through the confirm) leaves a tombstone in both tabs, the text gone', async () => {
    await tabB.bringToFront();
    await note(tabB, second).getByRole('button', { name: 'Delete note' }).click();
    const dialog = tabB.getByRole('dialog', { name: 'Delete Note' });
    await dialog.getByRole('button', { name: 'Delete Note' }).click();
    await gone(dialog);
    for (const page of [tabB, demo.page]) {
      await gone(note(page, second));
      await shown(tombstones(page).filter({ hasText: 'Note deleted by Demo' }));
      await shown(line(page, /deleted a note/));
      expect(await timeline(page).getByText(second).count()).toBe(0);
    }
  });

  it('a reload keeps all of it', async () => {
    await demo.page.bringToFront();
    await demo.page.reload();
    await shown(note(demo.page, rewritten));
    await shown(tombstones(demo.page).filter({ hasText: 'Note deleted by Demo' }));
    await shown(line(demo.page, /changed the priority from Low to Urgent/));
    await shown(line(demo.page, /Demo created the ticket/));
    await note(demo.page, rewritten).locator('summary', { hasText: 'edited' }).click();
    await shown(note(demo.page, rewritten).getByRole('list', { name: 'Earlier versions' }).getByText(first));
    expect(await timeline(demo.page).getByText(second).count()).toBe(0);
    await liveConnected(demo.page);
  });

  it('the filter lives in the address and survives a reload', async () => {
    await demo.page.getByRole('group', { name: 'Show' }).getByRole('button', { name: 'Notes' }).click();
    await demo.page.waitForURL(/[?&]timeline=notes/);
    await gone(line(demo.page, /Demo created the ticket/));
    await shown(note(demo.page, rewritten));
    await demo.page.reload();
    await shown(note(demo.page, rewritten));
    expect(await demo.page.getByRole('button', { name: 'Notes', pressed: true }).count()).toBe(1);
    expect(await line(demo.page, /./).count()).toBe(0);
    await demo.page.getByRole('button', { name: 'Changes' }).click();
    await shown(line(demo.page, /changed the priority from Low to Urgent/));
    expect(await note(demo.page, rewritten).count()).toBe(0);
    await demo.page.getByRole('button', { name: 'All' }).click();
    await demo.page.waitForURL((url) => !url.search.includes('timeline='));
    await shown(note(demo.page, rewritten));
    await shown(line(demo.page, /Demo created the ticket/));
  });

  it('a change through another door (the REST facade) appears live, naming the door', async () => {
    const { ticket } = await gql<any>(demo.page, 'query($id: Int!) { ticket(id: $id) { title type description requesterId macroId assigneeId } }', {
      id: ticketId,
    });
    const response = await demo.page.request.put(`/api/tickets/${ticketId}/edit`, {
      data: {
        title: ticket.title,
        type: ticket.type,
        priority: 'High',
        assignee: ticket.assigneeId,
        requester: ticket.requesterId,
        apply_macro: ticket.macroId,
        description: ticket.description,
      },
    });
    expect(response.ok()).toBe(true);
    await shown(line(tabB, 'Demo changed the priority from Urgent to High through the REST API'));
    await shown(line(demo.page, 'Demo changed the priority from Urgent to High through the REST API'));
  });

  it('raw HTML in a note is shown as text and never runs', async () => {
    const hostile = `<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script> [x](javascript:window.__pwned=1) ${unique('Hostile')}`;
    await addNote(demo.page, hostile);
    const card = timeline(tabB).locator('.timeline-note', { hasText: '<img src=x onerror=' });
    await shown(card);
    expect(await card.locator('img, script, a[href^="javascript"]').count()).toBe(0);
    expect(await tabB.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await demo.page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  });

  it('the composer refuses an empty note with the shared message', async () => {
    const box = demo.page.getByLabel('Add an internal note');
    await box.fill('   ');
    await demo.page.getByRole('button', { name: 'Add internal note' }).click();
    await shown(demo.page.getByText('Note must be between 1 and 10,000 characters.'));
    expect(await box.getAttribute('aria-invalid')).toBe('true');
    await box.fill('');
  });

  it('reaches the composer, the filter and the note controls by Tab, and passes axe', async () => {
    const focusable = async (locator: Locator) => {
      await demo.page.locator('body').focus();
      for (let presses = 0; presses < 80; presses++) {
        await demo.page.keyboard.press('Tab');
        if (await locator.evaluate((el) => el === document.activeElement)) return true;
      }
      return false;
    };
    expect(await focusable(demo.page.getByLabel('Add an internal note'))).toBe(true);
    expect(await focusable(demo.page.getByRole('button', { name: 'Changes' }))).toBe(true);
    expect(await focusable(note(demo.page, rewritten).getByRole('button', { name: 'Edit note' }))).toBe(true);
    expect(await focusable(note(demo.page, rewritten).locator('summary'))).toBe(true);
    // Open the earlier versions: the whole timeline in view for axe.
    await note(demo.page, rewritten).locator('summary').press('Enter');
    expect(blocking(await axeViolations(demo.page))).toEqual([]);
  });

  it('threw no page errors', () => {
    expect(demo.errors).toEqual([]);
  });
});

describe('a long timeline', () => {
  it('loads older entries on scroll and by the button, keeping the place', async () => {
    const long = await createTicket(demo.page, unique('Long timeline'));
    // 1 creation + 119 notes: the first page holds 50, two more pages hold the rest.
    for (let n = 1; n <= 119; n++) {
      await gql(demo.page, 'mutation($t: Int!, $b: String!) { addTicketNote(ticketId: $t, body: $b) { id } }', { t: long, b: `Paged note ${n}.` });
    }
    const page = demo.page;
    await page.goto(`/view/ticket/${long}`);
    await shown(note(page, 'Paged note 119.'));
    const rows = timeline(page).locator('.timeline-list > li');
    expect(await rows.count()).toBe(50);
    // Scrolling to the end loads the next page below.
    await note(page, 'Paged note 70.').scrollIntoViewIfNeeded();
    await shown(note(page, 'Paged note 20.'));
    expect(await rows.count()).toBeGreaterThanOrEqual(100);
    // The keyboard's way: the button at the end. Focusing it brings the end into view, which may load the page by
    // itself; either way what is on screen (the last entry above the button) stays on screen and where it was.
    // (Rows laid out lazily once pushed it off screen after the jump: see timeline.css.)
    const button = page.getByRole('button', { name: 'Load older entries' });
    const onScreen = note(page, 'Paged note 20.');
    await button.focus();
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    const before = await onScreen.boundingBox();
    expect(before!.y).toBeGreaterThanOrEqual(0);
    expect(before!.y).toBeLessThan(page.viewportSize()!.height);
    if (await button.isVisible()) await page.keyboard.press('Enter');
    await shown(line(page, 'Demo created the ticket'));
    // Where it was, to the pixel (layout may round a sub-pixel differently once the page below has grown).
    expect((await onScreen.boundingBox())!.y).toBeCloseTo(before!.y, 0);
    expect(await rows.count()).toBe(120);
    await gone(button);
  });
});

describe('older pages stay live', () => {
  it('a note edited in an older page shows its new text there, and a live entry joins the top, each once', async () => {
    const ticket = await createTicket(demo.page, unique('Older pages'));
    // 1 creation + 60 notes: the first page holds the newest 50, the older page the rest (its own cached list).
    let olderId = 0;
    for (let n = 1; n <= 60; n++) {
      const { addTicketNote } = await gql<{ addTicketNote: { id: number } }>(
        demo.page,
        'mutation($t: Int!, $b: String!) { addTicketNote(ticketId: $t, body: $b) { id } }',
        { t: ticket, b: `Older note ${n}.` },
      );
      if (n === 3) olderId = addTicketNote.id;
    }
    const page = demo.page;
    await page.goto(`/view/ticket/${ticket}`);
    await liveConnected(page);
    // The end of the list in view loads the older page.
    await page.getByRole('button', { name: 'Load older entries' }).scrollIntoViewIfNeeded();
    await shown(line(page, 'Demo created the ticket'));
    await shown(note(page, 'Older note 3.'));
    // As another tab would: an edit of a note of the older page, then a new note.
    const edited = unique('Older note 3, edited');
    await gql(page, 'mutation($id: Int!, $b: String!) { editTicketNote(id: $id, body: $b) { id } }', { id: olderId, b: edited });
    await shown(note(page, edited));
    expect(await note(page, 'Older note 3.').count()).toBe(0);
    const newest = unique('Newest note');
    await gql(page, 'mutation($t: Int!, $b: String!) { addTicketNote(ticketId: $t, body: $b) { id } }', { t: ticket, b: newest });
    await shown(note(page, newest));
    const rows = timeline(page).locator('.timeline-list > li');
    // On top, and every entry once: the creation, 60 notes, the edit's line and the new note.
    expect(await rows.first().textContent()).toContain(newest);
    expect(await rows.count()).toBe(63);
    expect(await note(page, edited).count()).toBe(1);
    expect(await note(page, 'Older note 1.').count()).toBe(1);
    expect(await note(page, 'Older note 60.').count()).toBe(1);
  });
});

describe('a lost connection', () => {
  it('resubscribes from the highest seq held: what was written meanwhile shows once', async () => {
    const agent = await chromium.open();
    const sockets: WebSocketRoute[] = [];
    let refusing = false;
    await agent.page.routeWebSocket(/\/graphql$/, (socket) => {
      if (refusing) {
        void socket.close({ code: 1013, reason: 'Try Again Later' });
        return;
      }
      socket.connectToServer();
      sockets.push(socket);
    });
    // What the page asks of the server over its sockets.
    const subscribes: string[] = [];
    agent.page.on('websocket', (socket) =>
      socket.on('framesent', ({ payload }) => {
        const text = typeof payload === 'string' ? payload : payload.toString('utf8');
        if (text.includes('TicketTimelineEvents')) subscribes.push(text);
      }),
    );
    await gql(agent.page, 'mutation($email: String!, $password: String!) { login(email: $email, password: $password) { id } }', DEMO);
    const id = await createTicket(agent.page, unique('Reconnect'));
    const before = unique('Before the drop');
    await gql(agent.page, 'mutation($t: Int!, $b: String!) { addTicketNote(ticketId: $t, body: $b) { id } }', { t: id, b: before });
    await agent.page.goto(`/view/ticket/${id}`);
    await liveConnected(agent.page);
    await shown(note(agent.page, before));
    await expect.poll(() => subscribes.length).toBe(1);
    // Seq 1 is the creation, 2 the note: the first subscription already held both.
    expect(JSON.parse(subscribes[0]).payload.variables).toEqual({ ticketId: id, afterSeq: 2 });

    refusing = true;
    await sockets.at(-1)!.close({ code: 1012, reason: 'Service Restart' });
    await shown(agent.page.getByRole('status').filter({ hasText: 'Reconnecting…' }));
    const meanwhile = unique('Written while down');
    await gql(agent.page, 'mutation($t: Int!, $b: String!) { addTicketNote(ticketId: $t, body: $b) { id } }', { t: id, b: meanwhile });
    refusing = false;
    await shown(note(agent.page, meanwhile));
    await liveConnected(agent.page);
    await expect.poll(() => subscribes.length).toBe(2);
    expect(JSON.parse(subscribes[1]).payload.variables).toEqual({ ticketId: id, afterSeq: 2 });
    // A live entry after the reconnect: the barrier for the counts below (the catch-up refetch and the
    // resubscription's backlog both brought the note written meanwhile).
    const after = unique('Back online');
    await gql(agent.page, 'mutation($t: Int!, $b: String!) { addTicketNote(ticketId: $t, body: $b) { id } }', { t: id, b: after });
    await shown(note(agent.page, after));
    expect(await note(agent.page, meanwhile).count()).toBe(1);
    expect(await timeline(agent.page).locator('.timeline-list > li').count()).toBe(4);
    expect(agent.errors).toEqual([]);
    await agent.context.close();
  });
});

/** A ticket of the page's agent, requested by the directory's newest customer, through the API. */
async function createTicket(page: Page, title: string): Promise<number> {
  const customers = await gql<{ customers: { nodes: { id: number }[] } }>(page, '{ customers(first: 1) { nodes { id } } }');
  return createTicketApi(page, { title, requesterId: customers.customers.nodes[0].id, description: 'Made for the timeline test.', priority: 'Low' });
}
