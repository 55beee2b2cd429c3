// What the page sweeps share (ux.test.mjs, issue 17's; ux37.test.mjs, issue
// 37's): pages at a width, a paid customer, the pages to sweep, when a page
// has settled, how far it scrolls sideways and which English strings a
// translation must not leave behind. Each test file is its own process, so
// each has its own paid customer: the two files run at once (make test's
// ALONE group) without sharing a user's language or plan.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { BASE, BILLING_ADDRESS, openPage, apiUser, useSession, api, until, payOnSandbox } from './lib.mjs';

/** A new page of browser at width × height. */
export async function pageAt(browser, width, height = 850) {
  const page = await openPage(browser.context);
  await page.setViewportSize({ width, height });
  return page;
}


let paid; // this process's paid customer, made once

/** A user on Pro through the sandbox checkout, with one paid invoice (one a test file). */
export function paidUser(browser) {
  paid ??= (async () => {
    const user = await apiUser('ux-paid');
    assert.equal((await api('PATCH', `/v1/accounts/${user.account_id}/billing-address`, BILLING_ADDRESS, user.token)).status, 200);
    const page = await pageAt(browser, 1280);
    await useSession(page, user);
    await page.goto(`${BASE}/dashboard/${user.account_id}/plans?for=plan_upgrade`);
    await page.getByRole('region', { name: 'Pro' }).getByRole('button', { name: 'Start with Pro' }).click();
    await payOnSandbox(page);
    await until('the invoice to be paid and numbered', async () => {
      const inv = (await api('GET', `/v1/accounts/${user.account_id}/billing`, undefined, user.token)).body.invoices;
      return inv.length > 0 && inv[0].status === 'PAID' && inv[0].invoice_url !== '';
    });
    await page.close();
    return user;
  })();
  return paid;
}

/** The signed-out pages. */
export const PUBLIC_PAGES = ['/signin', '/signup', '/registered', '/auth/request-password-reset', '/auth/reset-password?token=x',
  '/auth/confirm-email?token=not-a-token', '/auth/callback', '/invitation?token=not-a-token', '/privacy-policy', '/terms-of-use',
  '/no-such-page', '/signin/verify'];
/** A signed-in account's pages, under /dashboard/{id}/. */
export const DASHBOARD_PAGES = ['testimonials', 'spaces', 'showcases', 'reels', 'team', 'integrations', 'account-settings/plan',
  'account-settings/personal-details', 'billing/invoices', 'billing/payment-details', 'preferences', 'request-feature',
  'plans', 'plans?for=plan_upgrade'];

/**
 * Waits until the page has settled: its route drawn (a main landmark and a
 * heading: every page has both, and axe reports their absence, which a page
 * still fetching its route's code on a loaded machine showed once), no
 * spinner, fonts and network idle.
 */
export async function settle(page) {
  await page.waitForLoadState('networkidle').catch(() => {});
  await page.waitForFunction(() => document.querySelector('main') && document.querySelector('h1'), null, { timeout: 60000 }).catch(() => {});
  await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached', timeout: 15000 }).catch(() => {});
  await page.waitForTimeout(300);
}

/** Resizes page's window to width (850 px high) and waits for two frames: the layout's answer. */
export async function resize(page, width, height = 850) {
  await page.setViewportSize({ width, height });
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

/** How far the page scrolls sideways (0 when it does not). */
export const sideways = (page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** Every en string that nl or fr translate differently, without placeholders. */
export function englishOnly(lang) {
  const dir = new URL('../ui/src/locales/', import.meta.url);
  const strings = new Set();
  const leaves = (obj, prefix, out) => {
    for (const [k, v] of Object.entries(obj)) {
      if (typeof v === 'string') out.set(`${prefix}${k}`, v);
      else leaves(v, `${prefix}${k}.`, out);
    }
    return out;
  };
  const files = readdirSync(new URL('en/', dir));
  const read = (l, file) => leaves(JSON.parse(readFileSync(new URL(`${l}/${file}`, dir), 'utf8')), '', new Map());
  // A word the other language uses too (a plan called "Team") is not English left behind.
  const otherValues = new Set(files.flatMap((file) => [...read(lang, file).values()]));
  for (const file of files) {
    for (const value of read('en', file).values()) {
      if (value.includes('{{') || value.includes('<') || value.length < 4) continue;
      if (otherValues.has(value)) continue;
      strings.add(value);
    }
  }
  return strings;
}
