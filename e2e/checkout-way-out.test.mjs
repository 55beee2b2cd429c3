// Issue 12: no dashboard locked by an abandoned checkout. A customer who
// backs out of the hosted checkout (its Cancel link) lands back with the
// checkout ended; one who closes the tab and comes back sees the processing
// overlay offer "Cancel payment" after a few seconds; a card declined at
// checkout ends processing with the failure popup.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launch, openPage, apiUser, useSession, api } from './lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const address = { organization_name: 'Analytical Engines', street_and_number: 'Main 1', postal_code: '1000',
  city: 'Brussels', region: 'Brussels', country: 'nl_BE' };

/** A user with a billing address and an open Pro checkout; returns it and the checkout link. */
async function openCheckout(prefix) {
  const user = await apiUser(prefix);
  await api('PATCH', `/v1/accounts/${user.account_id}/billing-address`, address, user.token);
  const co = await api('POST', `/v1/accounts/${user.account_id}/subscription`, { plan: 'PRO' }, user.token);
  assert.equal(co.status, 201, JSON.stringify(co.body));
  return { user, href: co.body.checkout_href };
}

const showStatus = async (user) =>
  (await api('GET', `/v1/accounts/${user.account_id}`, undefined, user.token)).body.account.subscription.show_status;

test('the hosted page\'s Cancel ends the checkout and says nothing was charged', async () => {
  const { user, href } = await openCheckout('cancel-link');
  const page = await openPage(browser.context);
  await useSession(page, user);
  await page.goto(href);
  await page.getByRole('button', { name: /Cancel and go back/ }).click();
  await page.waitForURL(/account-settings\/plan\?checkout=cancelled/, { timeout: 30000 });
  await page.getByText(/nothing was charged/).waitFor({ timeout: 15000 });
  assert.equal(await page.getByTestId('overlay-processing').count(), 0);
  assert.equal(await showStatus(user), 'active');
  await page.close();
});

test('the processing overlay offers a way out, which ends the checkout', async () => {
  const { user } = await openCheckout('overlay-way-out');
  const page = await openPage(browser.context);
  await useSession(page, user);
  await page.goto(`${BASE}/dashboard/${user.account_id}/testimonials`);
  await page.getByTestId('overlay-processing').waitFor({ timeout: 15000 });
  const cancel = page.getByRole('button', { name: 'Cancel payment' });
  await cancel.waitFor({ timeout: 15000 }); // offered after a few seconds
  await cancel.click();
  await page.getByTestId('overlay-processing').waitFor({ state: 'detached', timeout: 15000 });
  assert.equal(await showStatus(user), 'active');
  await page.close();
});

test('a card declined at checkout ends processing with the failure popup', async () => {
  const { user, href } = await openCheckout('declined-card');
  const page = await openPage(browser.context);
  await useSession(page, user);
  await page.goto(href);
  await page.getByLabel(/4000000000009995/).check();
  await page.getByRole('button', { name: 'Pay' }).click();
  await page.waitForURL(/account-settings\/plan\?checkout=failed/, { timeout: 30000 });
  await page.getByRole('alert').filter({ hasText: /did not go through/ }).waitFor({ timeout: 15000 });
  assert.equal(await page.getByTestId('overlay-processing').count(), 0);
  const billing = (await api('GET', `/v1/accounts/${user.account_id}/billing`, undefined, user.token)).body;
  assert.equal(billing.invoices.length, 0, 'no invoice for a declined first payment');
  assert.equal((await api('GET', `/v1/accounts/${user.account_id}`, undefined, user.token)).body.account.subscription.plan, 'TRIAL');
  await page.close();
});
