// Dunning of issue 13 in a real browser, on the fast instance (45 s billing
// period, the default retry schedule of days): a Starter plan bought with
// Stripe's test card 4000000000000341, whose later off-session charges are
// declined, renews into dunning. The plan stays active, a banner on every
// dashboard page names the failed amount and the next attempt and links to
// the payment details, and the customer is mailed (payment_failed). Adding a
// working card there pays the renewal at once: the banner goes, the period
// keeps its renewal date, and a receipt is mailed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { FAST, launch, openPage, billedCustomer, useSession, until } from './lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('a declined renewal: banner, mail, a new card pays it, the banner goes', { timeout: 300000 }, async () => {
  const page = await openPage(browser.context);
  const { user, dash, subscription, invoices, purposes } = await billedCustomer('dunning', FAST);
  await useSession(page, user, FAST);

  // Starter, paid with the card whose later charges are declined (picked on the hosted page).
  await page.goto(`${dash}/plans?for=trial_expired`);
  await page.getByRole('region', { name: 'Starter' }).getByRole('button', { name: 'Start with Starter' }).click();
  await page.waitForURL(/\/sandbox\/checkout\//, { timeout: 30000 });
  await page.getByRole('radio', { name: /4000000000000341/ }).check();
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await page.getByText('You are on the Starter plan.').waitFor({ timeout: 60000 });

  // The renewal 45 s later is declined: dunning, the plan still active.
  await until('the renewal to be retried', async () => (await subscription()).payment_retry_at !== null, 120000);
  const sub = await subscription();
  assert.equal(sub.show_status, 'active');
  assert.equal(sub.failed_payment.currency, 'EUR');
  const renewal = sub.plan_renewal_at;

  // The banner, on any dashboard page, with the amount as the UI writes it and a way out.
  await page.goto(`${dash}/testimonials`);
  const banner = page.getByRole('alert').filter({ hasText: 'Your payment of' });
  await banner.waitFor({ timeout: 30000 });
  assert.match(await banner.innerText(), /Your payment of €217\.80 failed\. We'll try again on \d{1,2} \w+ \d{4}\./);
  await until('the payment_failed mail', async () => (await purposes()).includes('payment_failed'), 30000);

  // A working card, added from the banner's link, pays the renewal at once.
  await banner.getByRole('link', { name: 'Update your payment method' }).click();
  await page.waitForURL(/\/billing\/payment-details/);
  await page.getByRole('button', { name: 'Add payment method' }).click();
  await page.getByRole('dialog', { name: 'Add a payment method' }).getByRole('button', { name: 'Continue to the payment provider' }).click();
  await page.waitForURL(/\/sandbox\/checkout\//, { timeout: 30000 });
  await page.getByRole('radio', { name: /4242424242424242/ }).check();
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await page.waitForURL(/\/billing\/payment-details/, { timeout: 30000 });
  await until('the renewal paid with the new card', async () => (await subscription()).payment_retry_at === null, 60000);
  // The page (drawn, with the new card listed) drops the banner by itself: it re-reads the account while dunning.
  await page.getByRole('list', { name: 'Payment methods' }).getByText('Visa ending in 4242').waitFor({ timeout: 30000 });
  await page.waitForFunction(() => !document.body.innerText.includes('Your payment of'), null, { timeout: 30000 });
  const after = await subscription();
  assert.equal(after.payment_retry_at, null);
  assert.equal(after.failed_payment, null);
  assert.ok(Date.parse(after.plan_renewal_at) > Date.parse(renewal), 'the next period is paid');
  const renewals = (await invoices())
    .filter((i) => i.description === 'Renewal STARTER');
  assert.ok(renewals.length >= 1 && renewals.every((i) => i.status === 'PAID'), JSON.stringify(renewals));
  await until('the receipt of the renewal', async () =>
    (await purposes()).filter((p) => p === 'payment_receipt').length >= 2, 30000);
  await page.close();
});
