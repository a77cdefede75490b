/** Helpers of the live-update browser tests (live*.e2e.ts): sign-ins, the live socket, conversations. */
import type { Browser, BrowserContext, Page, WebSocket } from 'playwright-core';
import { openPage, type WIDE } from './browser';
import { baseURL, DEMO, gql, shown } from './helpers';

export const MARNIE = { email: 'marnie@fulcrum.app', password: 'fulcrum-marnie' };
export const BOBBIE = { email: 'bobbie@fulcrum.app', password: 'fulcrum-bobbie' };
export { DEMO };

export interface Agent {
  context: BrowserContext;
  page: Page;
  errors: string[];
}

/** A fresh context signed in as `account` (through the API), on `path`, with its live socket connected. */
export async function signedIn(browser: Browser, account: { email: string; password: string }, path: string, viewport?: typeof WIDE): Promise<Agent> {
  const agent = await openPage(browser, baseURL(), viewport);
  await gql(agent.page, 'mutation($email: String!, $password: String!) { login(email: $email, password: $password) { id } }', account);
  await agent.page.goto(path);
  await liveConnected(agent.page);
  return agent;
}

/** Another tab of the same agent (same context, so the same session cookie), on `path`, connected. */
export async function anotherTab(agent: Agent, path: string): Promise<Page> {
  const page = await agent.context.newPage();
  page.on('pageerror', (error) => agent.errors.push(`pageerror: ${error.message}`));
  await page.goto(path);
  await liveConnected(page);
  return page;
}

/** The shell's live status region says the socket is up (connection_ack received). */
export async function liveConnected(page: Page): Promise<void> {
  await page.locator('[role="status"][data-live="connected"]').waitFor({ state: 'attached' });
}

/** Marks the document; `sameDocument` is then false after any reload or full navigation. */
export async function markDocument(page: Page): Promise<void> {
  await page.evaluate(() => ((window as unknown as { __liveMark: boolean }).__liveMark = true));
}

export async function sameDocument(page: Page): Promise<boolean> {
  return page.evaluate(() => (window as unknown as { __liveMark?: boolean }).__liveMark === true);
}

/** The picker entry of a user, by exact name (the current user's entry reads "Name (you)"). */
export function conversationButton(page: Page, name: string) {
  return page
    .locator('.conversation-picker .conversation')
    .filter({ has: page.locator('.conversation-name', { hasText: new RegExp(`^${name}( \\(you\\))?$`) }) });
}

export async function openConversation(page: Page, name: string): Promise<void> {
  await conversationButton(page, name).click();
  await shown(page.locator('.conversation-header h2', { hasText: name }));
}

export function messageCard(page: Page, text: string) {
  return page.locator('.message-card', { has: page.locator('.message-text', { hasText: text }) });
}

/** Every text frame the page's websockets receive (to prove an agent was sent nothing about a message). */
export function recordFrames(page: Page): { frames: string[]; sockets: WebSocket[] } {
  const record = { frames: [] as string[], sockets: [] as WebSocket[] };
  page.on('websocket', (socket) => {
    record.sockets.push(socket);
    socket.on('framereceived', ({ payload }) => record.frames.push(typeof payload === 'string' ? payload : payload.toString('utf8')));
  });
  return record;
}

export async function sendMessageApi(page: Page, receiverId: number, text: string): Promise<number> {
  const data = await gql<{ sendMessage: { id: number } }>(page, 'mutation($r: Int!, $t: String!) { sendMessage(receiverId: $r, text: $t) { id } }', {
    r: receiverId,
    t: text,
  });
  return data.sendMessage.id;
}

/**
 * Marks every conversation of the page's agent read (through the API). Read state is kept on the server, so
 * messages other test files sent to this agent would otherwise still count.
 */
export async function readEverything(page: Page): Promise<void> {
  const { conversations } = await gql<{ conversations: { nodes: { partnerId: number; unreadCount: number }[] } }>(
    page,
    '{ conversations(first: 100) { nodes { partnerId unreadCount } } }',
  );
  for (const c of conversations.nodes) {
    if (c.unreadCount > 0) await gql(page, 'mutation($p: Int!) { markConversationRead(partnerId: $p) { unreadCount } }', { p: c.partnerId });
  }
}
