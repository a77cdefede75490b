import { describe, expect, it } from 'vitest';
import { useBrowser } from './browser';
import { demoLogin, gone, shown } from './helpers';

const chromium = useBrowser();

const stamp = Date.now().toString(36);

describe('session', () => {
  it('Demo Login logs in as the demo account and goes to view/tickets/all; Log Out goes to /', async () => {
    const { page, context, errors } = await chromium.open();
    await demoLogin(page);
    await page.getByRole('button', { name: 'Menu' }).click();
    await shown(page.getByText('Hello, Demo'));
    await shown(page.getByText('User id: 1'));
    await shown(page.getByText('demo@fulcrum.app'));
    await page.getByRole('button', { name: 'Log Out' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await shown(page.getByRole('button', { name: 'Sign In' }));
    // Signed out for real: a reload still shows the signed-out header.
    await page.reload();
    await shown(page.getByRole('button', { name: 'Sign In' }));
    await page.goto('/view/tickets/all');
    await shown(page.getByRole('heading', { name: 'Sign in to continue' }));
    expect(errors).toEqual([]);
    await context.close();
  });

  it('full-page Log In: required fields, the server field error, then success redirects to /', async () => {
    const { page, context } = await chromium.open();
    await page.goto('/login');
    const form = page.locator('main');
    await form.getByRole('button', { name: 'Log In' }).click();
    await shown(form.getByText('Please provide a valid email'));
    await form.getByLabel('Email').fill('demo@fulcrum.app');
    await form.getByLabel('Password').fill('wrong-password');
    await form.getByRole('button', { name: 'Log In' }).click();
    await shown(form.getByText('Email or password is incorrect.'));
    await form.getByLabel('Password').fill('fulcrum-demo');
    await form.getByRole('button', { name: 'Log In' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await shown(page.getByRole('button', { name: 'Menu' }));
    await context.close();
  });

  it('modal Log In: "Log in as Demo User" fills the demo credentials, then goes to view/tickets/all', async () => {
    const { page, context } = await chromium.open();
    await page.goto('/');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('button', { name: 'Log In' }).click();
    const dialog = page.getByRole('dialog', { name: 'Log In' });
    await shown(dialog);
    expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    await dialog.getByRole('button', { name: 'Log in as Demo User' }).click();
    expect(await dialog.getByLabel('Email').inputValue()).toBe('demo@fulcrum.app');
    expect(await dialog.getByLabel('Password').inputValue()).not.toBe('');
    await dialog.getByRole('button', { name: 'Log In', exact: true }).click();
    await page.waitForURL('**/view/tickets/all');
    await gone(page.getByRole('dialog'));
    await shown(page.getByRole('heading', { name: /Open Tickets/ }));
    await context.close();
  });

  it("modal Sign Up shows every rule of SPEC section 5 and the server's duplicate-email error", async () => {
    const { page, context } = await chromium.open();
    await page.goto('/');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('button', { name: 'Sign Up' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign Up' });
    await dialog.getByLabel('Email').fill('no-at-sign');
    await dialog.getByLabel('Username').fill('ab');
    await dialog.getByLabel('Password', { exact: true }).fill('12345');
    await dialog.getByLabel('Confirm Password').fill('123456');
    await dialog.getByRole('button', { name: 'Sign Up' }).click();
    await shown(dialog.getByText('Please provide a valid email'));
    await shown(dialog.getByText('Username must be between 3 and 30 characters'));
    await shown(dialog.getByText('Password must be between 6 and 20 characters.'));
    await shown(dialog.getByText('Confirm Password field must be the same', { exact: true }));
    await dialog.getByLabel('Password', { exact: true }).fill('x'.repeat(21));
    await dialog.getByLabel('Username').fill('y'.repeat(31));
    await dialog.getByRole('button', { name: 'Sign Up' }).click();
    await shown(dialog.getByText('Password must be between 6 and 20 characters.'));
    await shown(dialog.getByText('Username must be between 3 and 30 characters'));
    expect(await dialog.getByRole('button', { name: 'Loading...' }).count()).toBe(0);

    // Valid input, but the email is taken: the server's field error shows under Email.
    await dialog.getByLabel('Email').fill('demo@fulcrum.app');
    await dialog.getByLabel('Username').fill(`dupe${stamp}`);
    await dialog.getByLabel('Password', { exact: true }).fill('secret123');
    await dialog.getByLabel('Confirm Password').fill('secret123');
    await dialog.getByRole('button', { name: 'Sign Up' }).click();
    await shown(dialog.getByText('Email address is already in use.'));

    // And a fresh account signs up and lands on the dashboard.
    await dialog.getByLabel('Email').fill(`modal.${stamp}@example.com`);
    await dialog.getByRole('button', { name: 'Sign Up' }).click();
    await page.waitForURL('**/view/tickets/all');
    await shown(page.getByRole('heading', { name: '(0) Open Tickets' }));
    await context.close();
  });

  it('page Sign Up checks only the password match, shows server field errors, then redirects to /', async () => {
    const { page, context } = await chromium.open();
    await page.goto('/signup');
    const form = page.locator('main');
    await form.getByLabel('Email').fill(`page.${stamp}@example.com`);
    await form.getByLabel('Username').fill('ab'); // too short: only the server says so on this page
    await form.getByLabel('Password', { exact: true }).fill('secret123');
    await form.getByLabel('Confirm Password').fill('secret124');
    await form.getByRole('button', { name: 'Sign Up' }).click();
    await shown(form.getByText('Confirm Password field must be the same as the Password field'));
    expect(await form.getByText('Username must be between 3 and 30 characters').count()).toBe(0);

    await form.getByLabel('Confirm Password').fill('secret123');
    await form.getByRole('button', { name: 'Sign Up' }).click();
    await shown(form.getByText('Username must be between 3 and 30 characters'));

    await form.getByLabel('Username').fill(`page${stamp}`);
    await form.getByRole('button', { name: 'Sign Up' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('button', { name: 'Menu' }).click();
    await shown(page.getByText(`Hello, page${stamp}`));
    await context.close();
  });

  it('shows "Something went wrong. Please try again" when the server answers 5xx', async () => {
    const { page, context } = await chromium.open();
    await page.goto('/login');
    await page.route('**/graphql', (route) =>
      route.request().postData()?.includes('mutation Login')
        ? route.fulfill({ status: 503, contentType: 'text/plain', body: 'Service Unavailable' })
        : route.continue(),
    );
    const form = page.locator('main');
    await form.getByLabel('Email').fill('demo@fulcrum.app');
    await form.getByLabel('Password').fill('fulcrum-demo');
    await form.getByRole('button', { name: 'Log In' }).click();
    await shown(form.getByText('Something went wrong. Please try again'));
    await context.close();
  });
});
