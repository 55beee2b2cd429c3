// Billing of issue 6 in a real browser, on the fast instance (45 s billing
// period): a paid invoice is downloaded as its PDF; a declined renewal
// leaves a DUE_PAYMENT invoice that is paid from the invoices table; a
// payment method is added through the sandbox and removed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { FAST, launch, openPage, apiUser, useSession, api, until } from './lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('invoices: download the PDF, pay a due invoice; payment methods: add and remove', { timeout: 400000 }, async () => {
  const page = await openPage(browser.context);
  const user = await apiUser('billing', { base: FAST });
  const call = (method, path, body) => api(method, path, body, user.token, FAST);
  const address = { organization_name: 'Analytical Engines', street_and_number: 'Main 1', postal_code: '1000',
    city: 'Brussels', region: 'Brussels', country: 'nl_NL', vat_id: 'NL123456789B01' };
  assert.equal((await call('PATCH', `/v1/accounts/${user.account_id}/billing-address`, address)).status, 200);
  await useSession(page, user, FAST);
  const dash = `${FAST}/dashboard/${user.account_id}`;

  // Start Starter through the sandbox checkout.
  await page.goto(`${dash}/plans?for=trial_expired`);
  await page.getByRole('region', { name: 'Starter' }).getByRole('button', { name: 'Start with Starter' }).click();
  await page.waitForURL(/\/sandbox\/checkout\//, { timeout: 30000 });
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await page.getByText('You are on the Starter plan.').waitFor({ timeout: 60000 });
  // Renewals will be declined: the next period leaves a due invoice.
  assert.equal((await api('POST', '/dev/sandbox/declines', { account_id: user.account_id, decline: true }, undefined, FAST)).status, 204);

  // The paid invoice, and its PDF saved as "{number}.pdf".
  await page.goto(`${dash}/billing/invoices`);
  const table = page.getByRole('table', { name: 'Invoices' });
  const number = await until('the invoice number', async () => {
    const inv = (await call('GET', `/v1/accounts/${user.account_id}/billing`)).body.invoices[0];
    return inv.invoice_url !== '' && inv.status === 'PAID';
  }).then(async () => (await call('GET', `/v1/accounts/${user.account_id}/billing`)).body.invoices[0].invoice_url);
  await page.reload();
  await table.getByText('Starter plan').waitFor();
  await table.getByText('Paid', { exact: true }).waitFor();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    table.getByRole('button', { name: `Download invoice ${number}` }).click(),
  ]);
  assert.equal(download.suggestedFilename(), `${number}.pdf`);
  const pdf = readFileSync(await download.path());
  assert.equal(pdf.subarray(0, 4).toString(), '%PDF');

  // The declined renewal: a DUE_PAYMENT invoice with a dash and a Pay button.
  await until('the renewal to be declined', async () =>
    (await call('GET', `/v1/accounts/${user.account_id}/billing`)).body.invoices.some((i) => i.status === 'DUE_PAYMENT'));
  await api('POST', '/dev/sandbox/declines', { account_id: user.account_id, decline: false }, undefined, FAST);
  await page.goto(`${dash}/billing/invoices`);
  await table.getByText('Payment due').waitFor();
  await table.getByRole('button', { name: 'Pay', exact: true }).click();
  await page.waitForURL(/\/sandbox\/checkout\//, { timeout: 30000 });
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await page.waitForURL(/\/account-settings\/plan/, { timeout: 30000 });
  await until('the due invoice to be paid', async () =>
    (await call('GET', `/v1/accounts/${user.account_id}/billing`)).body.invoices.every((i) => i.status === 'PAID'));

  // Payment methods: the saved card, add a second, remove one.
  await page.goto(`${dash}/billing/payment-details`);
  const methods = page.getByRole('list', { name: 'Payment methods' });
  await methods.getByText('Visa ending in 4242').first().waitFor();
  const count = async () => (await call('GET', `/v1/accounts/${user.account_id}/billing`)).body.mandate_count;
  assert.equal(await count(), 1);
  await page.getByRole('button', { name: 'Remove payment method' }).first().isDisabled().then((d) => assert.ok(d, 'the only method cannot be removed'));
  await page.getByRole('button', { name: 'Add payment method' }).click();
  await page.getByRole('dialog', { name: 'Add a payment method' }).getByRole('button', { name: 'Continue to the payment provider' }).click();
  await page.waitForURL(/\/sandbox\/checkout\//, { timeout: 30000 });
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await page.waitForURL(/\/billing\/payment-details/, { timeout: 30000 });
  await until('two payment methods', async () => (await count()) === 2);
  await page.reload();
  await page.getByRole('button', { name: 'Remove payment method' }).first().click();
  await page.getByRole('alertdialog', { name: 'Remove this payment method?' }).getByRole('button', { name: 'Yes, remove it' }).click();
  await until('one payment method', async () => (await count()) === 1);
  await page.close();
});
