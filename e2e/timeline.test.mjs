// The billing timeline of issue 14 in a real browser: an account that
// backed out of ten checkouts and then bought Starter reads its history on
// the Activity tab — reached, paged and used with the keyboard alone — and
// downloads the invoice of its payment from there.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { launch, openPage, apiUser, useSession, api, until, BASE } from './lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('activity: the timeline newest first, load more, an invoice downloaded, by keyboard', { timeout: 300000 }, async () => {
  const user = await apiUser('timeline');
  const acc = `/v1/accounts/${user.account_id}`;
  const call = (method, path, body) => api(method, path, body, user.token);
  const timeline = async () => (await call('GET', `${acc}/billing/timeline?limit=100`)).body.events;
  const count = async (type) => (await timeline()).filter((e) => e.type === type).length;
  assert.equal((await call('PATCH', `${acc}/billing-address`, { organization_name: 'Analytical Engines', street_and_number: 'Main 1',
    postal_code: '1000', city: 'Brussels', region: 'Brussels', country: 'nl_NL', vat_id: 'NL123456789B01' })).status, 200);

  // Ten checkouts opened and cancelled (the sandbox's Cancel link), one at a time.
  const checkout = async () => {
    const res = await call('POST', `${acc}/subscription`, { plan: 'STARTER' });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return new URL(res.body.checkout_href).pathname;
  };
  for (let i = 1; i <= 10; i++) {
    const path = await checkout();
    await fetch(`${BASE}${path}/cancel`, { method: 'POST', redirect: 'manual' });
    await until(`checkout ${i} cancelled`, async () => (await count('checkout_cancelled')) === i);
  }
  // Then Starter is bought.
  const path = await checkout();
  assert.equal((await fetch(`${BASE}${path}/pay`, { method: 'POST', redirect: 'manual' })).status < 400, true);
  await until('the plan started', async () => (await count('plan_started')) === 1);
  const events = await timeline();
  assert.equal(events.length, 25); // with the address's vat_id_checked
  const invoice = (await call('GET', `${acc}/billing`)).body.invoices[0];
  assert.equal(invoice.status, 'PAID');
  await until('the invoice PDF', async () => (await call('POST', `${acc}/invoices/${invoice.id}/download`)).status === 200);

  const page = await openPage(browser.context);
  await useSession(page, user);
  await page.goto(`${BASE}/dashboard/${user.account_id}/billing/invoices`);
  await page.getByRole('table', { name: 'Invoices' }).waitFor();
  // The Activity tab, by keyboard.
  const tab = page.getByRole('link', { name: 'Activity' }).or(page.getByRole('tab', { name: 'Activity' }));
  await tab.focus();
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/billing\/activity$/);

  const list = page.getByRole('list', { name: 'Billing activity' });
  const items = list.getByRole('listitem');
  await items.first().waitFor();
  assert.equal(await items.count(), 20);
  assert.deepEqual(await items.evaluateAll((lis) => lis.slice(0, 3).map((li) => li.dataset.type)),
    ['plan_started', 'payment_succeeded', 'checkout_opened']);
  const paid = items.nth(1);
  await paid.getByText('Payment received').waitFor();
  await paid.getByText('€217.80').waitFor();
  assert.match(await paid.locator('time').getAttribute('datetime'), /^\d{4}-\d{2}-\d{2}T/);

  // Load more, by keyboard: the rest appears after what was shown.
  await page.getByRole('button', { name: 'Load more' }).focus();
  await page.keyboard.press('Enter');
  await until('the second page', async () => (await items.count()) === 25, 30000);
  assert.equal(await page.getByRole('button', { name: 'Load more' }).count(), 0);
  assert.deepEqual(await items.evaluateAll((lis) => lis.map((li) => li.dataset.type)), events.map((e) => e.type));
  await page.getByRole('status').filter({ hasText: '25 events shown' }).waitFor({ state: 'attached' });

  // The payment's invoice link downloads its PDF (Enter on the focused link).
  const link = paid.getByRole('button', { name: `Download invoice ${invoice.invoice_url}` });
  await link.focus();
  const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  assert.equal(download.suggestedFilename(), `${invoice.invoice_url}.pdf`);
  assert.equal(readFileSync(await download.path()).subarray(0, 4).toString(), '%PDF');
  assert.deepEqual(page.consoleErrors, []);
});
