// The subscription lifecycle of issue 5 in a real browser, on the fast
// instance (20 s trial, 45 s billing period): the trial expires, the user
// pays Pro through the sandbox checkout while the worker is killed and
// restarted (the payment completes, once), the plan renews on its own,
// auto-renewal is stopped, the plan expires, 'continue with plan' pays the
// due invoice, and the plan is upgraded.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { FAST, launch, openPage, apiUser, useSession, api, until, worker, payOnSandbox } from './lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** Pays the sandbox checkout and waits for the way back to the plan tab. */
async function payAndReturn(page) {
  await payOnSandbox(page);
  await page.waitForURL(/\/account-settings\/plan/, { timeout: 30000 });
}

test('trial → expired → pay (worker killed meanwhile) → renew → stop → expired → continue → upgrade', { timeout: 600000 }, async () => {
  const page = await openPage(browser.context);
  const user = await apiUser('lifecycle', { base: FAST });
  const billing = () => api('GET', `/v1/accounts/${user.account_id}/billing`, undefined, user.token, FAST).then((r) => r.body);
  const address = { organization_name: 'Analytical Engines', street_and_number: 'Main 1', postal_code: '1000',
    city: 'Brussels', region: 'Brussels', country: 'nl_BE' };
  assert.equal((await api('PATCH', `/v1/accounts/${user.account_id}/billing-address`, address, user.token, FAST)).status, 200);
  await useSession(page, user, FAST);
  const dash = `${FAST}/dashboard/${user.account_id}`;

  const status = () => api('GET', `/v1/accounts/${user.account_id}`, undefined, user.token, FAST)
    .then((r) => r.body.account.subscription.show_status);

  // The trial expires by itself: the next page shows the blocking overlay.
  await until('the trial to expire', async () => (await status()) === 'trial_expired');
  await page.goto(`${dash}/testimonials`);
  const expired = page.getByRole('dialog', { name: 'Your trial has expired' });
  await expired.waitFor({ timeout: 60000 });
  await expired.getByRole('link', { name: 'Choose a plan' }).click();
  await page.waitForURL(/\/plans\?for=trial_expired/);
  await page.getByRole('heading', { name: 'Your trial has ended: choose your plan' }).waitFor();
  await page.getByRole('region', { name: 'Pro' }).getByRole('button', { name: 'Start with Pro' }).click();

  // The checkout is open; the worker dies; the customer pays anyway.
  await page.waitForURL(/\/sandbox\/checkout\//, { timeout: 30000 });
  worker('kill');
  await page.getByRole('button', { name: 'Pay' }).click();
  await page.waitForURL(/\/account-settings\/plan/, { timeout: 30000 });
  await page.getByRole('dialog', { name: 'Your payment is being processed' }).waitFor();
  await new Promise((r) => setTimeout(r, 3000));
  await page.getByRole('dialog', { name: 'Your payment is being processed' }).waitFor(); // still: no worker
  worker('start');
  await page.getByText('You are on the Pro plan.').waitFor({ timeout: 60000 });
  await page.getByText(/Your plan renews automatically on \d\d\/\d\d\/\d\d\./).waitFor();
  const paid = (await billing()).invoices.filter((i) => i.description === 'PRO');
  assert.equal(paid.length, 1, 'one invoice for the plan');
  assert.equal(paid[0].status, 'PAID');

  // The plan renews on its own at the end of the (45 s) period.
  await until('a paid renewal', async () => (await billing()).invoices.some((i) => i.description === 'Renewal PRO' && i.status === 'PAID'));

  // Stop auto-renewal: the plan stops at the end of the period.
  await page.reload();
  await page.getByRole('button', { name: 'Stop auto-renewal' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Stop auto-renewal?' });
  await confirm.getByText(/the testimonials you collected may be lost/).waitFor();
  await confirm.getByRole('button', { name: 'Yes, stop auto-renewal' }).click();
  await page.getByText(/Your plan stops on \d\d\/\d\d\/\d\d\./).waitFor();

  await until('the plan to stop', async () => (await status()) === 'plan_expired');
  await page.goto(`${dash}/testimonials`);
  const planExpired = page.getByRole('dialog', { name: 'Your plan has expired' });
  await planExpired.waitFor({ timeout: 90000 });
  await planExpired.getByRole('link', { name: 'Reactivate your plan' }).click();
  await page.waitForURL(/\/plans\?for=plan_expired/);
  await page.getByRole('region', { name: 'Pro' }).getByRole('button', { name: 'Continue with Pro' }).click();
  await payAndReturn(page);
  await page.getByText(/Your plan renews automatically on/).waitFor({ timeout: 60000 });

  // Upgrade to Team: the prorated difference, through the checkout.
  await page.goto(`${dash}/plans?for=plan_upgrade`);
  await page.getByRole('region', { name: 'Pro' }).getByRole('button', { name: 'Your current plan' }).waitFor();
  await page.getByRole('region', { name: 'Team' }).getByRole('button', { name: 'Upgrade to Team' }).click();
  await payAndReturn(page);
  await page.getByText('You are on the Team plan.').waitFor({ timeout: 60000 });
  const upgrades = (await billing()).invoices.filter((i) => i.description === 'UPGRADE_TEAM');
  assert.equal(upgrades.length, 1);
  assert.equal(upgrades[0].status, 'PAID');
  await page.close();
});
