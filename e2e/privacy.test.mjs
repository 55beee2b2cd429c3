// Data exports of issue 28 in a real browser: asked for from personal
// details, followed on the export's page (preparing, then ready) and
// downloaded; the mail's link opens the same page; axe finds nothing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { BASE, launch, openPage, apiUser, useSession, waitForLink } from './lib.mjs';

const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('a user exports their data: the page follows it to ready, the download is a ZIP, the mail links back', async () => {
  const page = await openPage(browser.context);
  const user = await apiUser('export');
  await useSession(page, user);
  await page.goto(`${BASE}/dashboard/${user.account_id}/account-settings/personal-details`);
  await page.getByRole('button', { name: 'Export my data' }).click();
  await page.waitForURL(/\/exports\//);
  const exportUrl = page.url();
  await page.getByRole('heading', { level: 1, name: 'Your data export' }).waitFor();
  const download = page.getByRole('link', { name: 'Download' });
  await download.waitFor({ timeout: 30000 });
  assert.match(await page.getByRole('status').last().innerText(), /You can download it until/);

  const href = await download.getAttribute('href');
  const res = await fetch(href);
  const zip = Buffer.from(await res.arrayBuffer());
  assert.equal(res.status, 200);
  assert.equal(zip.subarray(0, 2).toString(), 'PK', 'the download is a ZIP');

  const { link } = await waitForLink(user.email, '/exports/');
  assert.equal(new URL(link).pathname, new URL(exportUrl).pathname.replace(/^\/dashboard\/[^/]+/, ''), 'the mail links to the export');
  await page.goto(link);
  await page.waitForURL(exportUrl);
  await download.waitFor();

  await page.evaluate(AXE);
  const result = await page.evaluate(() =>
    // eslint-disable-next-line no-undef
    axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } }));
  assert.deepEqual(result.violations.map((v) => v.id), []);
  assert.deepEqual(page.consoleErrors, []);
  await page.close();
});

test('the owner schedules the account\'s deletion with their password, sees the banner everywhere, and cancels it with their password', async () => {
  const page = await openPage(browser.context);
  const user = await apiUser('deleting');
  await useSession(page, user);
  await page.goto(`${BASE}/dashboard/${user.account_id}/account-settings/personal-details`);
  await page.getByRole('button', { name: 'Delete this account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete this account?' });
  await dialog.getByLabel('Current password').fill('Secret1!');
  await dialog.getByRole('button', { name: 'Delete the account' }).click();
  await dialog.waitFor({ state: 'hidden' });
  const banner = page.getByTestId('deletion-banner');
  await banner.waitFor();
  assert.match(await banner.innerText(), /This account will be deleted on/);
  await page.goto(`${BASE}/dashboard/${user.account_id}/testimonials`);
  await banner.waitFor();
  await banner.getByRole('button', { name: 'Cancel the deletion' }).click();
  // Cancelling re-authenticates like scheduling (issue 35); a trial has no auto-renewal to offer back.
  const keep = page.getByRole('dialog', { name: 'Keep this account?' });
  await keep.getByLabel('Current password').fill('Secret1!');
  await keep.getByRole('button', { name: 'Keep the account' }).click();
  await keep.waitFor({ state: 'hidden' });
  await banner.waitFor({ state: 'detached' });
  const account = await fetch(`${BASE}/v1/accounts/${user.account_id}`, { headers: { Authorization: `Bearer ${user.token}` } });
  assert.equal((await account.json()).account.deletion_at, null);
  assert.deepEqual(page.consoleErrors, []);
  await page.close();
});
