/**
 * The GraphQL explorer at /graphiql: GraphiQL bundled from npm and served by the gateway, under its CSP with no
 * external request; it runs queries with the signed-in session, or with a pasted API token; and none of it is
 * part of the agents' app bundle.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useBrowser } from './browser';
import { baseURL, demoLogin, gql, shown } from './helpers';

const chromium = useBrowser();

/** Everything a page asked for, and every console complaint (CSP violations land there). */
function watch(page: Page) {
  const requests: string[] = [];
  const complaints: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('console', (message) => {
    if (message.type() === 'error' || /Content Security Policy/i.test(message.text())) complaints.push(message.text());
  });
  page.on('pageerror', (error) => complaints.push(error.message));
  return { requests, complaints };
}

/**
 * Puts a named query into GraphiQL's query editor (CodeMirror) and runs it once GraphiQL has taken it in (its tab
 * then carries the operation's name); returns the response pane's text.
 */
async function run(page: Page, name: string, query: string, expectText: string): Promise<string> {
  const editor = page.locator('.graphiql-query-editor .CodeMirror').first();
  await shown(editor);
  await editor.evaluate((el, text) => (el as unknown as { CodeMirror: { setValue(v: string): void } }).CodeMirror.setValue(text), `query ${name} ${query}`);
  await shown(page.locator('.graphiql-tab', { hasText: name }));
  await page.getByRole('button', { name: /Execute query/ }).click();
  const response = page.locator('.graphiql-response .CodeMirror-code');
  await response.filter({ hasText: expectText }).first().waitFor({ timeout: 20_000 });
  return response.innerText();
}

describe('GraphQL explorer', () => {
  it('loads under the CSP with no external request, and runs a query as the signed-in agent', async () => {
    const { page } = await chromium.open();
    await demoLogin(page);
    const seen = watch(page);
    await page.goto('/graphiql');
    await shown(page.getByRole('heading', { name: 'GraphQL explorer' }));
    const text = await run(
      page,
      'Mine',
      '{ me { username } customers(first: 2) { totalCount nodes { name } pageInfo { hasNextPage } } }',
      '"username": "Demo"',
    );
    expect(text).toContain('"totalCount"');
    const origin = new URL(baseURL()).origin;
    expect(seen.requests.filter((url) => !url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:'))).toEqual([]);
    expect(seen.complaints).toEqual([]);
    // Its scripts are the explorer's own: the agents' app never loads them.
    expect(seen.requests.some((url) => url.startsWith(`${origin}/graphiql/assets/`))).toBe(true);
  });

  it('signed out, a pasted token is sent as a bearer; without one the API says UNAUTHENTICATED', async () => {
    const { context: fresh, page } = await chromium.open();
    try {
      await page.goto('/graphiql');
      await run(page, 'SignedOut', '{ tickets(first: 1) { totalCount } }', 'UNAUTHENTICATED');
      // A token made by the signed-in agent of another context (the explorer never sees that session).
      const token = await createToken();
      await page.getByLabel('API token').fill(token);
      const text = await run(page, 'WithToken', '{ me { username } }', '"username": "Demo"');
      expect(text).toContain('Demo');
    } finally {
      await fresh.close();
    }
  });

  it("is not part of the agents' app: the app's pages load no explorer code", async () => {
    const { context: app, page } = await chromium.open();
    try {
      const seen = watch(page);
      await demoLogin(page);
      expect(seen.requests.filter((url) => url.includes('/graphiql'))).toEqual([]);
      const scripts = await page.locator('script[src]').evaluateAll((els) => els.map((el) => (el as HTMLScriptElement).src));
      for (const src of scripts) expect(await (await page.request.get(src)).text()).not.toContain('graphiql-container');
    } finally {
      await app.close();
    }
  });
});

/** A READ token of the demo agent, made with its browser session (as the web app's token page does). */
async function createToken(): Promise<string> {
  const { context: owner, page } = await chromium.open();
  try {
    await demoLogin(page);
    const created = await gql<{ createApiToken: { secret: string } }>(
      page,
      'mutation { createApiToken(input: { name: "explorer e2e", scopes: [READ] }) { secret } }',
    );
    return created.createApiToken.secret;
  } finally {
    await owner.close();
  }
}
