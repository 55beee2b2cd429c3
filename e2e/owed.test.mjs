// A debit returned after its period ended, in a real browser, on the FAST
// instance (45 s billing period): a Starter plan renews, then the bank takes
// back the debit of the first year (the sandbox's returned debit). The
// invoice is owed: the customer is mailed (payment_failed) and pays it from
// the invoices tab. While its checkout is open the account stays active (no
// "payment is being processed" overlay: paying a debt changes no plan), and
// the provider sends the customer back to the invoices, which say the
// payment is being applied and show the invoice paid by themselves.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { FAST, launch, openPage, billedCustomer, useSession, until } from './lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('an owed invoice: mailed, paid from the invoices tab, the plan untouched', { timeout: 300000 }, async () => {
  const page = await openPage(browser.context);
  const { user, dash, subscription, invoices, purposes } = await billedCustomer('owed', FAST);
  await useSession(page, user, FAST);

  await page.goto(`${dash}/plans?for=trial_expired`);
  await page.getByRole('region', { name: 'Starter' }).getByRole('button', { name: 'Start with Starter' }).click();
  await page.waitForURL(/\/sandbox\/checkout\//, { timeout: 30000 });
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await page.getByText('You are on the Starter plan.').waitFor({ timeout: 60000 });
  const first = (await invoices()).find((i) => i.status === 'PAID');
  assert.ok(first, 'the first year paid');

  // The year renews 45 s later; then the first year's debit comes back.
  await until('the first renewal', async () =>
    (await invoices()).some((i) => i.description === 'Renewal STARTER' && i.status === 'PAID'), 120000);
  const back = await fetch(`${FAST}/dev/sandbox/return`, { method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ account_id: user.account_id, invoice_id: first.id }) });
  assert.equal(back.status, 200, await back.text());
  await until('the returned invoice due', async () =>
    (await invoices()).some((i) => i.id === first.id && i.status === 'DUE_PAYMENT'), 60000);
  await until('the payment_failed mail', async () => (await purposes()).includes('payment_failed'), 60000)
    .catch(async (e) => { throw new Error(`${e.message}; mails: ${(await purposes()).join(', ')}`); });

  // Paid from the invoices tab.
  await page.goto(`${dash}/billing/invoices`);
  const row = page.locator(`tr[data-status="DUE_PAYMENT"]`);
  await row.getByRole('button', { name: 'Pay' }).click();
  await page.waitForURL(/\/sandbox\/checkout\//, { timeout: 30000 });
  const open = await subscription();
  assert.equal(open.show_status, 'active', 'paying a debt does not show the account processing');
  assert.equal(open.plan, 'STARTER');
  await page.getByRole('button', { name: 'Pay', exact: true }).click();

  await page.waitForURL(/\/billing\/invoices\?checkout=success/, { timeout: 30000 });
  await page.getByRole('status').filter({ hasText: 'your payment is being applied' }).waitFor({ timeout: 30000 });
  await page.locator(`tr[data-status="DUE_PAYMENT"]`).waitFor({ state: 'detached', timeout: 60000 });
  assert.equal(await page.getByText('Your payment is being processed').count(), 0, 'no processing overlay');
  const after = await subscription();
  assert.equal(after.show_status, 'active');
  assert.equal(after.plan, 'STARTER');
  assert.equal((await invoices()).find((i) => i.id === first.id).status, 'PAID');
  await page.close();
});
