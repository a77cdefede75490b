import { deflateSync } from 'node:zlib';
import { inject } from 'vitest';
import type { Locator, Page } from 'playwright-core';

export const baseURL = (): string => inject('baseURL');

export const DEMO = { email: 'demo@fulcrum.app', password: 'fulcrum-demo' };

let counter = 0;
/** A name no other test (or earlier run on this data) used. */
export function unique(prefix: string): string {
  counter += 1;
  return `${prefix} ${Date.now().toString(36)}${counter}`;
}

/** Logs in through the landing page's "Demo Login" and waits for the dashboard. */
export async function demoLogin(page: Page): Promise<void> {
  await page.goto('/');
  await page.getByRole('button', { name: 'Demo Login' }).click();
  await page.waitForURL('**/view/tickets/all');
  await page.getByRole('heading', { name: /\(\d+\) Open Tickets/ }).waitFor();
}

/** Calls the GraphQL API with the page's own session cookie (to set up data a test is not about). */
export async function gql<T = Record<string, unknown>>(page: Page, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const response = await page.request.post('/graphql', { data: { query, variables } });
  const body = (await response.json()) as { data?: T; errors?: { message: string }[] };
  if (body.errors?.length) throw new Error(body.errors.map((e) => e.message).join('; '));
  return body.data as T;
}

/**
 * A customer and a macro of the signed-in agent's own (so their Edit and Delete are enabled), named
 * "<label> Customer <stamp>" and "<label> Macro <stamp>"; returns those names.
 */
export async function createOwnRecords(page: Page, label: string): Promise<{ customer: string; macro: string }> {
  const stamp = unique(label).replace(/\W/g, '');
  const customer = `${label} Customer ${stamp}`;
  const macro = `${label} Macro ${stamp}`;
  await gql(page, 'mutation($input: CustomerInput!) { createCustomer(input: $input) { id } }', {
    input: { name: customer, email: `${stamp.toLowerCase()}@example.com` },
  });
  await gql(page, 'mutation($input: MacroInput!) { createMacro(input: $input) { id } }', {
    input: { name: macro, description: `A canned reply for the ${label} test.` },
  });
  return { customer, macro };
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real PNG (RGB, 8 bit) of the given size and colour, made in memory. */
export function makePng(width: number, height: number, rgb: [number, number, number]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type RGB
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set(rgb, 1 + x * 3);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Waits until an <img> has loaded real pixels and returns its natural width. */
export async function loadedImageWidth(page: Page, selector: string): Promise<number> {
  const image = page.locator(selector).first();
  await image.waitFor();
  await page.waitForFunction((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0, await image.elementHandle(), {
    timeout: 15_000,
  });
  return image.evaluate((el) => (el as HTMLImageElement).naturalWidth);
}

/** Fails (after the context's timeout) unless the locator becomes visible. */
export async function shown(locator: Locator): Promise<void> {
  await locator.waitFor({ state: 'visible' });
}

/** Fails unless the locator disappears (hidden or detached). */
export async function gone(locator: Locator): Promise<void> {
  await locator.waitFor({ state: 'hidden' });
}

/**
 * Chooses a requester in the ticket form's combobox (it searches customers on the server): types `search`
 * (empty: the newest customers), waits for the options and picks the first with the keyboard. Returns the
 * chosen customer's name.
 */
export async function pickRequester(page: Page, search = ''): Promise<string> {
  const box = page.getByRole('combobox', { name: 'Requester' });
  await box.click();
  await box.fill(search);
  const listbox = page.getByRole('listbox', { name: 'Requester' });
  const option = listbox.getByRole('option').first();
  if (search)
    await listbox
      .getByRole('option', { name: new RegExp(search.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i') })
      .first()
      .waitFor();
  await option.waitFor();
  // The list shows the previous answer while the debounced search runs (aria-busy): choosing then would race the
  // answer that replaces the items (and resets the highlight), so wait until the list has settled.
  await page.locator('.combobox-menu[aria-busy="false"]').waitFor({ state: 'attached' });
  const name = await option.locator('.combobox-option-name').innerText();
  await box.press('ArrowDown');
  await box.press('Enter');
  // The choice is applied once the input shows "Name (email)" (React applies it after the key press).
  await page.waitForFunction(({ id, prefix }) => (document.getElementById(id) as HTMLInputElement | null)?.value.startsWith(prefix) ?? false, {
    id: (await box.getAttribute('id'))!,
    prefix: `${name} (`,
  });
  return name;
}

/**
 * A ticket made through GraphQL's multipart createTicket (the shape apollo-upload-client sends: operations, then the
 * map, then the file; the file's key is not "0", as integer-like keys would be sent before the map), with a small
 * PNG (the image is required). Returns its id.
 */
export async function createTicketApi(
  page: Page,
  input: { title: string; requesterId: number; description: string; priority?: string; macroId?: number },
  rgb: [number, number, number] = [0, 0, 0],
  placement: { teamId?: number; assigneeId?: number } = {},
): Promise<number> {
  const operations = JSON.stringify({
    query:
      'mutation($input: TicketInput!, $image: Upload, $teamId: Int, $assigneeId: Int) { createTicket(input: $input, image: $image, teamId: $teamId, assigneeId: $assigneeId) { id } }',
    variables: { input, image: null, ...placement },
  });
  const response = await page.request.post('/graphql', {
    headers: { 'Apollo-Require-Preflight': 'true' },
    multipart: {
      operations,
      map: JSON.stringify({ image: ['variables.image'] }),
      image: { name: 'a.png', mimeType: 'image/png', buffer: makePng(4, 4, rgb) },
    },
  });
  const body = (await response.json()) as { data?: { createTicket: { id: number } }; errors?: { message: string }[] };
  if (!body.data) throw new Error(JSON.stringify(body.errors));
  return body.data.createTicket.id;
}
