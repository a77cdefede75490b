/**
 * Webhooks in the web app: from the profile menu, an endpoint is added with a URL and events (the
 * address refused with the server's message first), its secret shown once; a ticket created in the app reaches a
 * real receiver on 127.0.0.1, signed (checked with the standardwebhooks package); the endpoint's page shows the
 * delivery log, sends a test, redelivers, disables with the reason shown, and deletes. A webhook an API token
 * created (a token with the WEBHOOKS access, made in the app) is disabled, with the reason shown, when the token is
 * revoked in the app.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { useSharedPage } from './browser';
import { baseURL, gone, gql, shown, unique } from './helpers';

let page: Page;
let errors: string[];
useSharedPage((opened) => ({ page, errors } = opened));

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

async function accessibilityProblems(selectors: string[]): Promise<string[]> {
  await page.evaluate(AXE);
  return page.evaluate(async (parts) => {
    const axe = (
      window as unknown as { axe: { run(context: unknown): Promise<{ violations: { id: string; impact: string; nodes: { target: unknown }[] }[] }> } }
    ).axe;
    const present = parts.filter((selector) => document.querySelector(selector));
    const { violations } = await axe.run({ include: present.map((selector) => [selector]) });
    return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} ${JSON.stringify(v.nodes.map((n) => n.target))}`);
  }, selectors);
}

const received: { headers: IncomingHttpHeaders; body: string }[] = [];
let status = 200;
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
    res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 410 ? 'gone for good' : 'thanks');
  });
});
let receiverUrl = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/${unique('hook').replace(/\W/g, '')}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function until(check: () => boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  expect(check()).toBe(true);
}

describe('webhooks page', () => {
  let secret = '';

  it("is reached from the profile menu; a private address is refused with the server's message", async () => {
    await page.goto('/view/tickets/all');
    await shown(page.getByRole('heading', { name: /\(\d+\) Open Tickets/ }));
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await shown(page.getByRole('heading', { name: 'Webhooks', level: 1 }));
    const form = page.getByRole('form', { name: 'New endpoint' });
    await form.getByLabel('Endpoint URL').fill('https://169.254.169.254/latest/meta-data');
    await form.getByRole('button', { name: 'Add endpoint' }).click();
    await shown(form.getByText(/169\.254\.169\.254 is a link-local address .* ask your administrator to allow this address\.$/));
    // The setting that allows an address is the operator's (docs/webhooks.md): an agent is not shown its name.
    expect(await form.getByText(/FULCRUM_WEBHOOK_ALLOW_HOSTS/).count()).toBe(0);
    // No event chosen: the shared message.
    await form.getByLabel('Ticket created').uncheck();
    await form.getByLabel('Ticket updated').uncheck();
    await form.getByRole('button', { name: 'Add endpoint' }).click();
    await shown(form.getByText('Choose at least one event.'));
    expect(await accessibilityProblems(['.token-form'])).toEqual([]);
  });

  it('adds an endpoint, shows the secret once, and a ticket created in the app reaches it signed', async () => {
    const form = page.getByRole('form', { name: 'New endpoint' });
    await form.getByLabel('Endpoint URL').fill(receiverUrl);
    await form.getByRole('group', { name: 'Tickets' }).getByLabel('Ticket created').check();
    await form.getByRole('button', { name: 'Add endpoint' }).click();
    const shownSecret = page.getByRole('textbox', { name: 'Signing secret' });
    await shown(shownSecret);
    secret = await shownSecret.inputValue();
    expect(secret).toMatch(/^whsec_/);
    expect(await accessibilityProblems(['.token-secret', '.token-table'])).toEqual([]);
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await gone(shownSecret);
    expect(await page.content()).not.toContain(secret);
    await shown(page.getByRole('row', { name: new RegExp(receiverUrl.replace(/[/.]/g, '\\$&')) }));

    const title = unique('Hooked').slice(0, 40);
    const { customers } = await gql<{ customers: { nodes: { id: number }[] } }>(page, '{ customers(first: 1) { nodes { id } } }');
    const res = await page.request.post('/api/tickets/create', { data: { title, requester: customers.nodes[0].id, description: 'Sent to a webhook.' } });
    expect(res.status()).toBe(201);
    await until(() => received.some((r) => r.body.includes(title)));
    const got = received.find((r) => r.body.includes(title))!;
    expect(new StandardWebhook(secret).verify(got.body, got.headers as Record<string, string>)).toMatchObject({ type: 'TICKET_CREATED', data: { title } });
  });

  it('the endpoint page shows the log, sends a test, redelivers, and shows why it was disabled', async () => {
    await page
      .getByRole('link', { name: /Deliveries and settings of/ })
      .first()
      .click();
    await shown(page.getByRole('table', { name: /Deliveries/ }));
    await shown(page.getByRole('row', { name: /Ticket created .* 200/ }));
    const before = received.length;
    await page.getByRole('button', { name: 'Send test' }).click();
    await shown(page.getByRole('status').getByText('Delivered: the endpoint answered 200.'));
    await shown(page.getByRole('row', { name: /Test .* 200/ }));
    expect(received.length).toBe(before + 1);

    status = 410;
    await page
      .getByRole('button', { name: /Redeliver Ticket created/ })
      .first()
      .click();
    await shown(page.getByRole('status').getByText('Failed: the endpoint answered 410.'));
    await page.reload();
    const alert = page.getByRole('alert').filter({ hasText: 'This endpoint is disabled' });
    await shown(alert);
    await shown(alert.getByText(/410 Gone/));
    expect(await accessibilityProblems(['.webhook-actions', '.webhook-log', '.webhook-disabled'])).toEqual([]);

    status = 200;
    await page.getByRole('button', { name: 'Enable' }).click();
    await shown(page.getByRole('status').getByText(/Enabled/));
    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Endpoint' });
    await dialog.getByRole('button', { name: 'Delete Endpoint' }).click();
    await page.waitForURL('**/settings/webhooks');
    await shown(page.getByText('No endpoints yet.'));
    expect(errors).toEqual([]);
  });
});

describe('a webhook made with an API token', () => {
  it('is disabled, with the reason shown, when the token is revoked', async () => {
    const name = unique('CRM sync').slice(0, 40);
    await page.goto('/settings/api-tokens');
    const form = page.getByRole('form', { name: 'New token' });
    await form.getByLabel('Name').fill(name);
    await form.getByLabel(/Read, write and webhooks \(WEBHOOKS\)/).check();
    await form.getByRole('button', { name: 'Create token' }).click();
    const shownSecret = page.getByRole('textbox', { name: 'New token' });
    await shown(shownSecret);
    const token = await shownSecret.inputValue();
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await shown(page.getByRole('row', { name: new RegExp(`${name}.*READ, WRITE, WEBHOOKS`) }));

    const url = `${receiverUrl}-token`;
    const res = await fetch(`${baseURL()}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        query: 'mutation($input: WebhookInput!) { createWebhook(input: $input) { webhook { id } } }',
        variables: { input: { url, events: ['TICKET_CREATED'] } },
      }),
    });
    const hookId = ((await res.json()) as { data: { createWebhook: { webhook: { id: number } } } }).data.createWebhook.webhook.id;

    await page.getByRole('button', { name: `Revoke ${name}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke Token' });
    await dialog.getByRole('button', { name: 'Revoke Token' }).click();
    await gone(dialog);

    await page.goto(`/settings/webhooks/${hookId}`);
    const alert = page.getByRole('alert').filter({ hasText: 'This endpoint is disabled' });
    await shown(alert);
    await shown(alert.getByText(new RegExp(`the API token "${name}", which created or last changed this webhook, was revoked at`)));
    expect(await accessibilityProblems(['.webhook-disabled'])).toEqual([]);
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete Endpoint' }).getByRole('button', { name: 'Delete Endpoint' }).click();
    await page.waitForURL('**/settings/webhooks');
    expect(errors).toEqual([]);
  });
});
