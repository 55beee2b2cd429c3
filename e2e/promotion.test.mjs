// Promotion codes (issue 38 item 3) in a real browser, on the fast instance
// (45 s billing period): ops create a code with `kudos ops promo create`;
// the owner enters a wrong code on the plans page (said beside the field),
// then the real one in lower case: the cards show the discounted prices
// and what the code does; the checkout charges the discounted price with
// VAT after the discount; the plan renews on its own with the code still
// running (forever). axe finds nothing on the page, with or without the
// code's messages.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { FAST, launch, openPage, apiUser, useSession, api, until, axeViolations } from './lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** Runs `kudos ops promo …` against the fast instance's database, as an operator does. */
function opsPromo(...args) {
  return execFileSync('sh', ['-c', 'env $KUDOS_E2E_FAST_ENV ./bin/kudos ops promo "$@"', 'kudos', ...args],
    { cwd: new URL('..', import.meta.url).pathname, encoding: 'utf8' });
}

test('ops create a code → wrong code refused → code applied (discounted prices) → checkout at the discount → renewal keeps it', { timeout: 300000 }, async () => {
  const code = `E2E${Date.now().toString(36).toUpperCase()}`;
  assert.match(opsPromo('create', code, '--percent', '20', '--duration', 'forever', '--plans', 'pro,team'), /created: 20% off, forever, plans pro,team/);
  assert.match(opsPromo('list'), new RegExp(`${code}\\s+active`));

  const page = await openPage(browser.context);
  const user = await apiUser('promo', { base: FAST });
  const address = { organization_name: 'Analytical Engines', street_and_number: 'Main 1', postal_code: '1000',
    city: 'Brussels', region: 'Brussels', country: 'nl_BE' };
  assert.equal((await api('PATCH', `/v1/accounts/${user.account_id}/billing-address`, address, user.token, FAST)).status, 200);
  await useSession(page, user, FAST);
  await page.goto(`${FAST}/dashboard/${user.account_id}/plans`);
  await page.getByRole('heading', { level: 1 }).waitFor();
  const pro = page.getByRole('region', { name: 'Pro' });
  await pro.getByText('€468 per year, billed annually').waitFor();

  const field = page.getByLabel('Promotion code');
  await field.fill('NOSUCHCODE');
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.getByText('This promotion code does not exist. Check how it is spelled.').waitFor();
  assert.equal(await field.getAttribute('aria-invalid'), 'true');
  assert.deepEqual(await axeViolations(page), [], 'axe with the refusal beside the field');

  await field.fill(code.toLowerCase());
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.getByText(`${code}: 20% off on Pro and Team, on every payment. The prices below include it.`).waitFor();
  await pro.getByText('€374.40 per year, billed annually').waitFor();
  await page.getByRole('region', { name: 'Starter' }).getByText('€180 per year, billed annually').waitFor();
  assert.deepEqual(await axeViolations(page), [], 'axe with the code applied');

  // 374.40 net, 21 % Belgian VAT after the discount: 78.62, 453.02 in all.
  await pro.getByRole('button', { name: 'Start with Pro' }).click();
  await page.waitForURL(/\/sandbox\/checkout\//, { timeout: 30000 });
  await page.getByText('EUR 453.02').waitFor();
  await page.getByRole('button', { name: 'Pay' }).click();
  await page.waitForURL(/\/account-settings\/plan/, { timeout: 30000 });
  await page.getByText('You are on the Pro plan.').waitFor({ timeout: 60000 });

  const account = () => api('GET', `/v1/accounts/${user.account_id}`, undefined, user.token, FAST).then((r) => r.body.account.subscription);
  assert.equal((await account()).promotion?.code, code);
  const billing = () => api('GET', `/v1/accounts/${user.account_id}/billing`, undefined, user.token, FAST).then((r) => r.body);
  await until('a paid renewal', async () => (await billing()).invoices.some((i) => i.description === 'Renewal PRO' && i.status === 'PAID'));
  assert.equal((await account()).promotion?.code, code, 'a forever code runs on after the renewal');
  // One code at a time: another is refused while this one runs.
  assert.equal((await api('GET', `/v1/pricing/${user.account_id}?promotion_code=${code}`, undefined, user.token, FAST)).status, 422);
  opsPromo('deactivate', code);
  assert.match(opsPromo('list'), new RegExp(`${code}\\s+deactivated`));
});
