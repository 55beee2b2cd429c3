// The foundation: the api serves the SPA with history fallback, health
// endpoints answer, and /signin loads in Chromium without console errors.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launch, openPage } from './lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('readyz reports Postgres and Temporal reachable', async () => {
  const res = await fetch(`${BASE}/readyz`);
  assert.equal(res.status, 200);
  assert.deepEqual((await res.json()).checks, { postgres: 'ok', temporal: 'ok' });
});

test('deep links serve the app', async () => {
  const res = await fetch(`${BASE}/dashboard/x/billing/invoices`);
  assert.equal(res.status, 200);
  assert.match(await res.text(), /<div id="root">/);
});

test('/signin loads with no console errors', async () => {
  const page = await openPage(browser.context);
  await page.goto(`${BASE}/signin`);
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await page.getByLabel('E-mail').waitFor();
  assert.deepEqual(page.consoleErrors, []);
  await page.close();
});

test('a dashboard route without a session redirects to sign-in, which is to come back to it', async () => {
  const page = await openPage(browser.context);
  await page.goto(`${BASE}/dashboard/00000000-0000-0000-0000-000000000000/billing/invoices`);
  await page.waitForURL(/\/signin\?redirect=%2Fdashboard%2F00000000-0000-0000-0000-000000000000%2Fbilling%2Finvoices$/);
  await page.close();
});
