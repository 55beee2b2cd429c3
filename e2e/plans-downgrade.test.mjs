// Issue 38 items 1 and 2 in a real browser (the default instance: a year's
// period, so nothing renews meanwhile): a Team owner buys two extra seats
// through the sandbox checkout and sees them counted, schedules Pro for the
// renewal from the plans page, sees "Pro from <date>" on the plan tab and
// cancels it after a confirmation; axe on the pages with the new parts.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launch, openPage, apiUser, useSession, api, axeViolations, payOnSandbox } from './lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** Pays the sandbox checkout and waits for the way back to the plan tab. */
async function payAndReturn(page) {
  await payOnSandbox(page);
  await page.waitForURL(/\/account-settings\/plan/, { timeout: 30000 });
}

test('extra seats through the checkout, a lower plan scheduled for the renewal and cancelled', { timeout: 300000 }, async () => {
  const page = await openPage(browser.context);
  const user = await apiUser('downgrade');
  const address = { organization_name: 'Analytical Engines', street_and_number: 'Main 1', postal_code: '1000',
    city: 'Brussels', region: 'Brussels', country: 'nl_BE' };
  assert.equal((await api('PATCH', `/v1/accounts/${user.account_id}/billing-address`, address, user.token)).status, 200);
  await useSession(page, user);
  const dash = `${BASE}/dashboard/${user.account_id}`;

  await page.goto(`${dash}/plans`);
  await page.getByRole('region', { name: 'Team' }).getByRole('button', { name: 'Start with Team' }).click();
  await payAndReturn(page);
  await page.getByText('You are on the Team plan.').waitFor({ timeout: 60000 });

  // Two extra seats: paid now, then counted.
  await page.goto(`${dash}/team`);
  const seats = page.getByTestId('seats-card');
  await seats.getByLabel('Seats in all').fill('12');
  await seats.getByText('2 more seats: you pay for them now, for the rest of the period.').waitFor();
  assert.deepEqual(await axeViolations(page), [], 'axe on the team page with the seats card');
  await seats.getByRole('button', { name: 'Change the seats' }).click();
  await payAndReturn(page);
  await page.goto(`${dash}/team`);
  await page.getByTestId('seats').filter({ hasText: '1 of 12 seats used' }).waitFor({ timeout: 60000 });

  // Pro for the renewal, from the plans page.
  await page.goto(`${dash}/plans`);
  await page.getByRole('region', { name: 'Pro' }).getByRole('button', { name: 'Switch to Pro at the renewal' }).click();
  const notice = page.getByTestId('scheduled-change');
  await notice.getByText(/^Pro from \d{1,2} \w+ \d{4}$/).waitFor({ timeout: 30000 });
  await page.getByRole('region', { name: 'Pro' }).getByRole('button', { name: 'Pro from the renewal' }).waitFor();
  assert.deepEqual(await axeViolations(page), [], 'axe on the plans page with a change scheduled');
  const sub = (await api('GET', `/v1/accounts/${user.account_id}`, undefined, user.token)).body.account.subscription;
  assert.equal(sub.plan, 'TEAM');
  assert.equal(sub.scheduled_plan, 'PRO');
  assert.equal(sub.scheduled_at, sub.plan_renewal_at);

  // The plan tab says it too, and cancels it after a confirmation.
  await page.goto(`${dash}/account-settings/plan`);
  await page.getByTestId('scheduled-change').getByText(/^Pro from /).waitFor();
  assert.deepEqual(await axeViolations(page), [], 'axe on the plan tab with a change scheduled');
  await page.getByRole('button', { name: 'Cancel the scheduled change' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Cancel the scheduled change?' });
  await confirm.getByRole('button', { name: 'Cancel the change' }).click();
  await page.getByTestId('scheduled-change').waitFor({ state: 'detached', timeout: 30000 });
  const after = (await api('GET', `/v1/accounts/${user.account_id}`, undefined, user.token)).body.account.subscription;
  assert.equal(after.scheduled_plan, null);
  assert.equal(after.extra_seats, 2);
});
