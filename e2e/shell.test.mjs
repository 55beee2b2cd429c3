// The dashboard shell and account pages of issue 4 in a real browser, at
// 1280 and 390 px wide.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launch, openPage, apiUser, useSession, api, waitForLink, asSigningUpBrowser } from './lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const widths = [{ name: 'wide', width: 1280 }, { name: 'narrow', width: 390 }];

/** Opens a dashboard page at a width; narrow screens navigate by the menu. */
async function pageAt(width) {
  const page = await openPage(browser.context);
  await page.setViewportSize({ width, height: 850 });
  return page;
}

for (const { name, width } of widths) {
  test(`${name}: an unactivated user sees only the confirm-e-mail dialog, whose resend says sent`, async () => {
    const page = await pageAt(width);
    const user = await apiUser('unactivated', { activate: false });
    await useSession(page, user);
    await page.goto(`${BASE}/dashboard/${user.account_id}/testimonials`);
    const dialog = page.getByRole('dialog', { name: 'Confirm your e-mail address' });
    await dialog.waitFor().catch(async (e) => {
      await page.screenshot({ path: `/tmp/kudos-e2e-${name}-unactivated.png` });
      throw e;
    });
    assert.equal(await page.getByRole('navigation', { name: 'Main navigation' }).count(), 0, 'no shell behind the dialog');
    const before = (await waitForLink(user.email, 'confirm-email?token=')).count;
    await dialog.getByRole('button', { name: 'Resend confirmation e-mail' }).click();
    await dialog.getByText('Sent', { exact: true }).first().waitFor();
    const deadline = Date.now() + 15000;
    while ((await waitForLink(user.email, 'confirm-email?token=')).count <= before) {
      assert.ok(Date.now() < deadline, 'a new confirmation mail arrives');
      await new Promise((r) => setTimeout(r, 250));
    }
    assert.equal(await page.getByText('Whoops.. There was an error.').count(), 0, 'the 403 is handled quietly');
    await page.close();
  });

  test(`${name}: onboarding from sign-up to quickstart`, async () => {
    const page = await pageAt(width);
    const user = await apiUser('onboarding', { activate: false });
    const { link } = await waitForLink(user.email, 'confirm-email?token=');
    await asSigningUpBrowser(page);
    await page.goto(link);
    await page.waitForURL(/\/testimonials/, { timeout: 10000 });
    await page.getByRole('heading', { name: 'Welcome to Kudos!' }).waitFor();
    await page.getByLabel('Account name').fill('ab');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Welcome to Kudos!' }).waitFor(); // too short: still here
    await page.getByLabel('Account name').fill('Analytical Engines');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Your organization' }).waitFor();
    await page.getByRole('button', { name: 'Skip for now' }).click();
    await page.getByRole('heading', { name: 'You are all set' }).waitFor();
    await page.getByRole('button', { name: 'Finish' }).click();
    await page.getByRole('heading', { name: 'You are all set' }).waitFor({ state: 'hidden' });
    const session = await page.evaluate(() => ({ token: localStorage.getItem('auth_token'), account: localStorage.getItem('account_id') }));
    const acc = await api('GET', `/v1/accounts/${session.account}`, undefined, session.token);
    assert.equal(acc.body.account.name, 'Analytical Engines');
    await page.reload();
    await page.getByRole('heading', { name: 'Testimonials' }).first().waitFor();
    assert.equal(await page.getByRole('heading', { name: 'Welcome to Kudos!' }).count(), 0, 'the wizard does not come back');
    await page.close();
  });

  test(`${name}: the shell, personal details, feature request and language`, async () => {
    const page = await pageAt(width);
    const user = await apiUser('shell');
    await useSession(page, user);
    await page.goto(`${BASE}/dashboard/${user.account_id}/testimonials`);
    const items = ['Testimonials', 'Spaces', 'Showcases', 'Reels', 'Team', 'Integrations'];
    if (width >= 768) {
      const nav = page.getByRole('navigation', { name: 'Main navigation' });
      for (const item of items) await nav.getByRole('link', { name: new RegExp(item) }).waitFor();
      await nav.getByText('4', { exact: true }).waitFor();
    } else {
      await page.getByRole('button', { name: 'Open the navigation menu' }).click();
      for (const item of items) await page.getByRole('menuitem', { name: new RegExp(item) }).waitFor();
      await page.getByRole('menuitem', { name: /Integrations/ }).click();
      await page.waitForURL(/\/integrations$/);
    }
    await page.getByText('Trial', { exact: true }).filter({ visible: true }).first().waitFor();
    await page.getByText('10 free recordings left in your trial.').filter({ visible: true }).first().waitFor();

    // Personal details: the first name saves when the field is left.
    await page.getByRole('button', { name: /User menu/ }).click();
    await page.getByRole('menuitem', { name: 'Account settings' }).click();
    await page.getByRole('link', { name: 'Personal details' }).click();
    const first = page.getByLabel('First name');
    await first.fill('Augusta');
    await first.blur();
    await page.getByText('Saved', { exact: true }).first().waitFor();
    assert.equal((await api('GET', `/v1/accounts/${user.account_id}`, undefined, user.token)).body.user.firstname, 'Augusta');

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
    assert.equal((await api('GET', `/v1/accounts/${user.account_id}`, undefined, user.token)).body.user.preferred_language, 'nl');
    assert.deepEqual(page.consoleErrors, []);
    await page.close();
  });
}
