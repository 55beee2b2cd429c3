// The dashboard shell and account pages of issue 4 in a real browser.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launch, openPage, apiUser, useSession, api, waitForLink } from './lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('an unactivated user sees only the confirm-e-mail dialog, whose resend says sent', async () => {
  const page = await openPage(browser.context);
  const user = await apiUser('unactivated', { activate: false });
  await useSession(page, user);
  await page.goto(`${BASE}/dashboard/${user.account_id}/testimonials`);
  const dialog = page.getByRole('dialog', { name: 'Confirm your e-mail address' });
  await dialog.waitFor();
  assert.equal(await page.getByRole('navigation', { name: 'Main navigation' }).count(), 0, 'no shell behind the dialog');
  const before = (await waitForLink(user.email, 'confirm-email?token=')).count;
  await dialog.getByRole('button', { name: 'Resend confirmation e-mail' }).click();
  await dialog.getByText('Sent', { exact: true }).first().waitFor();
  const deadline = Date.now() + 15000;
  while ((await waitForLink(user.email, 'confirm-email?token=')).count <= before) {
    assert.ok(Date.now() < deadline, 'a new confirmation mail arrives');
    await new Promise((r) => setTimeout(r, 250));
  }
  // No error popup for the quiet 403.
  assert.equal(await page.getByText('Whoops.. There was an error.').count(), 0);
  await page.close();
});

test('the shell, personal details, preferences and a feature request', async () => {
  const page = await openPage(browser.context);
  const user = await apiUser('shell');
  await useSession(page, user);
  await page.goto(`${BASE}/dashboard/${user.account_id}/testimonials`);
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  for (const item of ['Testimonials', 'Spaces', 'Showcases', 'Reels', 'Team', 'Integrations']) {
    await nav.getByRole('link', { name: new RegExp(item) }).waitFor();
  }
  await nav.getByText('4', { exact: true }).waitFor();
  await page.getByText('Trial', { exact: true }).first().waitFor();
  await page.getByText('10 free recordings left in your trial.').first().waitFor();

  // Personal details: the first name saves when the field is left.
  await page.getByRole('button', { name: /User menu of/ }).click();
  await page.getByRole('menuitem', { name: 'Account settings' }).click();
  await page.getByRole('tab', { name: 'Personal details' }).click();
  const first = page.getByLabel('First name');
  await first.fill('Augusta');
  await first.blur();
  await page.getByText('Saved', { exact: true }).first().waitFor();
  const acc = await api('GET', `/v1/accounts/${user.account_id}`, undefined, user.token);
  assert.equal(acc.body.user.firstname, 'Augusta');

  // Request a feature.
  await page.goto(`${BASE}/dashboard/${user.account_id}/request-feature`);
  await page.getByLabel('Description').fill('Vertical video reels, please.');
  await page.getByRole('button', { name: 'Send request' }).click();
  await page.getByText('Thank you!').waitFor();

  // Preferences: the language changes the app and is stored.
  await page.goto(`${BASE}/dashboard/${user.account_id}/preferences`);
  await page.getByRole('combobox', { name: 'Language' }).click();
  await page.getByRole('option', { name: 'Nederlands' }).click();
  await page.getByRole('button', { name: 'Save language' }).click();
  await page.getByRole('heading', { name: 'Voorkeuren' }).waitFor();
  const after = await api('GET', `/v1/accounts/${user.account_id}`, undefined, user.token);
  assert.equal(after.body.user.preferred_language, 'nl');
  assert.deepEqual(page.consoleErrors, []);
  await page.close();
});

test('narrow screens get a menu instead of the sidebar', async () => {
  const page = await openPage(browser.context);
  await page.setViewportSize({ width: 390, height: 800 });
  const user = await apiUser('narrow');
  await useSession(page, user);
  await page.goto(`${BASE}/dashboard/${user.account_id}/spaces`);
  await page.getByRole('button', { name: 'Open the navigation menu' }).click();
  await page.getByRole('menuitem', { name: /Integrations/ }).click();
  await page.waitForURL(/\/integrations$/);
  await page.close();
});
