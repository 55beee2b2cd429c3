// Shared helpers of the end-to-end tests: a headless Debian Chromium driven
// by playwright-core, the app's base URL, and the dev mailbox.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export const BASE = process.env.KUDOS_E2E_URL ?? 'http://127.0.0.1:18080';
/** The fast instance: a 20 s trial and a 45 s billing period. */
export const FAST = process.env.KUDOS_E2E_FAST_URL ?? 'http://127.0.0.1:18081';

/**
 * Launches Chromium with the flags this machine needs (Playwright gives it a
 * fresh profile). `context` stands for the browser: openPage makes a new,
 * empty context for every page, so no test sees another's storage.
 */
export async function launch() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  return { context: browser, close: () => browser.close() };
}

/**
 * Opens a page in a context of its own that records console errors; closing
 * the page closes its context.
 */
export async function openPage(browser) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.consoleErrors = [];
  page.on('console', (m) => { if (m.type() === 'error') page.consoleErrors.push(m.text()); });
  page.on('pageerror', (e) => page.consoleErrors.push(String(e)));
  page.on('close', () => { context.close().catch(() => {}); });
  return page;
}

/** A unique e-mail address for one test run. */
export function uniqueEmail(prefix) {
  return `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/**
 * Waits for a mail to `to` whose text contains `marker` (and, given
 * `purpose`, of that purpose, e.g. team_invitation), and returns its link.
 */
export async function waitForLink(to, marker, { timeoutMs = 30000, after = 0, base = BASE, purpose } = {}) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const res = await fetch(`${base}/dev/mailbox?to=${encodeURIComponent(to)}`);
    const { messages } = await res.json();
    const hit = messages.find((m) => m.text.includes(marker) && Date.parse(m.received_at) >= after
      && (!purpose || m.purpose === purpose));
    if (hit) {
      const link = hit.text.split(/\s+/).find((w) => w.includes(marker));
      return { link, message: hit, count: messages.length };
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no mail to ${to} containing ${marker} within ${timeoutMs} ms`);
}

/**
 * The headers of a set-up call: a client address of its own (the e2e
 * instances trust 127.0.0.1 as their load balancer, scripts/test.sh), so
 * that set-up does not use up the per-client limits of the browsers under
 * test. /dev answers only requests without forwarding headers.
 */
function setupHeaders(path) {
  if (path.startsWith('/dev/')) return {};
  const n = Math.floor(Math.random() * 2 ** 17);
  return { 'X-Forwarded-For': `198.${18 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}` };
}

/** Calls the API directly (test set-up). */
export async function api(method, path, body, token, base = BASE) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...setupHeaders(path), ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/**
 * The browser key of the users apiUser makes: activating with it signs in,
 * as the browser that signed up would be (issue 27).
 */
export const API_BROWSER_KEY = 'ZTJlLWFwaS11c2VyLWUyZS1hcGktdXNlci1lMmUtYXA';

/**
 * Makes page's browser the one that signed the apiUser users up: an
 * activation link opened there then signs in (issue 27).
 */
export async function asSigningUpBrowser(page, base = BASE) {
  await page.goto(`${base}/signin`);
  await page.evaluate((key) => localStorage.setItem('signup_browser_key', key), API_BROWSER_KEY);
}

/**
 * Makes a user through the API: signed up, activated (unless `activate` is
 * false) and with the account named, so onboarding is done. Returns the
 * session and the e-mail.
 */
export async function apiUser(prefix, { activate = true, base = BASE } = {}) {
  const email = uniqueEmail(prefix);
  const body = JSON.stringify({ firstname: 'Ada', lastname: 'Lovelace', email, password: 'Secret1!',
    opt_in_marketing: false, opt_in_terms_of_use: true, preferred_language: 'en', root_domain: base,
    browser_key: API_BROWSER_KEY });
  // Each set-up sign-up is a client of its own (setupHeaders); should one still meet the
  // per-client limit, its 429 is waited out for as long as its Retry-After says, then tried again.
  let signup;
  for (let attempt = 0; ; attempt++) {
    signup = await fetch(`${base}/v1/auth/signup`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...setupHeaders('/v1') }, body });
    if (signup.status !== 429 || attempt === 3) break;
    await new Promise((r) => setTimeout(r, (Number(signup.headers.get('Retry-After')) || 30) * 1000));
  }
  if (signup.status !== 201) throw new Error(`signup: ${signup.status}`);
  let session;
  if (activate) {
    const { link } = await waitForLink(email, 'confirm-email?token=', { base });
    session = (await api('PUT', '/v1/auth/activate-user', { token: new URL(link).searchParams.get('token'), browser_key: API_BROWSER_KEY },
      undefined, base)).body;
    await api('PATCH', `/v1/accounts/${session.account_id}`, { name: 'Analytical Engines' }, session.token, base);
  } else {
    session = (await api('POST', '/v1/auth/signin', { email, password: 'Secret1!' }, undefined, base)).body;
  }
  return { email, ...session };
}

/** Stores a session in the browser the way the sign-in screen does. */
export async function useSession(page, user, base = BASE) {
  await page.goto(`${base}/signin`);
  await page.evaluate((u) => {
    localStorage.setItem('auth_token', u.token);
    localStorage.setItem('auth_token_expiry', u.token_expiry);
    localStorage.setItem('account_id', u.account_id);
    localStorage.setItem('auth_email', u.email);
  }, user);
}

/** The billing address of a customer who pays: a Belgian company (21 % VAT). */
export const BILLING_ADDRESS = { organization_name: 'Analytical Engines', street_and_number: 'Main 1', postal_code: '1000',
  city: 'Brussels', region: 'Brussels', country: 'nl_BE' };

/** Pays the sandbox checkout the page is on (or is going to). */
export async function payOnSandbox(page) {
  await page.waitForURL(/\/sandbox\/checkout\//, { timeout: 30000 });
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
}

/**
 * A new customer of the instance at base, with BILLING_ADDRESS, and what
 * reads their account: call (the api as them), dash (their dashboard's
 * URL), subscription(), invoices() (newest first) and purposes() (of the
 * mails sent to them, from the dev mailbox).
 */
export async function billedCustomer(prefix, base = BASE) {
  const user = await apiUser(prefix, { base });
  const call = (method, path, body) => api(method, path, body, user.token, base);
  assert.equal((await call('PATCH', `/v1/accounts/${user.account_id}/billing-address`, BILLING_ADDRESS)).status, 200);
  return {
    user,
    call,
    dash: `${base}/dashboard/${user.account_id}`,
    subscription: async () => (await call('GET', `/v1/accounts/${user.account_id}`)).body.account.subscription,
    invoices: async () => (await call('GET', `/v1/accounts/${user.account_id}/billing`)).body.invoices,
    purposes: async () => (await (await fetch(`${base}/dev/mailbox?to=${encodeURIComponent(user.email)}`)).json())
      .messages.map((m) => m.purpose),
  };
}

/** Polls cond (async) every 500 ms until it holds; fails after timeoutMs. */
export async function until(what, cond, timeoutMs = 90000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await cond()) return;
    assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** Kills or starts the fast instance's worker (scripts/e2e-worker.sh kill|start). */
export const worker = (action) => execFileSync('scripts/e2e-worker.sh', [action], { cwd: new URL('..', import.meta.url).pathname });

const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
/** Best practices the review found too: one h1 and one main landmark per page. */
const ALSO = ['page-has-heading-one', 'landmark-one-main'];

/**
 * axe-core over the page (WCAG 2.1 A and AA, plus ALSO): the violations, as
 * readable lines. Only those rules run (not every best practice, to be
 * filtered after), and only violations are gathered: the page sweeps run it
 * a few hundred times.
 */
export async function axeViolations(page) {
  await page.evaluate(AXE);
  const result = await page.evaluate(({ tags, also }) =>
    // eslint-disable-next-line no-undef
    axe.run(document, {
      runOnly: { type: 'tag', values: tags },
      rules: Object.fromEntries(also.map((id) => [id, { enabled: true }])),
      resultTypes: ['violations'],
    }), { tags: WCAG, also: ALSO });
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
