// Issue 17, the moments customers notice, in a real browser: no page scrolls
// sideways at 320/390/768 px; axe-core finds no WCAG 2.1 A/AA violation on
// any page, signed out and in, at desktop and phone width; honest plan
// headings; one error at a time; dead-end links; checkout confirmed; legal
// pages; SEO basics; and the language switch leaves no English behind.
// A long file (page sweeps at four widths): make test runs it ALONE, on an
// instance of its own beside the main instance's other files, at the same
// time as ux37.test.mjs (issue 37's sweep).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, BILLING_ADDRESS as ADDRESS, launch, apiUser, useSession, api, waitForLink, axeViolations, payOnSandbox } from './lib.mjs';
import * as ux from './ux-lib.mjs';
import { PUBLIC_PAGES, DASHBOARD_PAGES, settle, sideways, englishOnly } from './ux-lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const pageAt = (width, height) => ux.pageAt(browser, width, height);
/** A Pro customer with a paid invoice, shared by this file's page sweeps. */
const paidUser = () => ux.paidUser(browser);

// sweep opens each of urls once and looks at it at every width, widest
// first, by resizing the window (as a window dragged narrower or a phone
// turned): a layout that answers only the first width it was drawn at is a
// finding too, and a page is loaded once instead of four times.
async function sweep(urls, session) {
  const problems = [];
  const page = await pageAt(1280);
  if (session) await useSession(page, session);
  for (const url of urls) {
    await page.goto(url);
    for (const width of [1280, 768, 390, 320]) {
      await ux.resize(page, width);
      await settle(page);
      const over = await sideways(page);
      if (over > 0) problems.push(`${width}px ${url}: scrolls sideways by ${over}px`);
      if (width === 390 || width === 1280) {
        for (const v of await axeViolations(page)) problems.push(`${width}px ${url}: axe ${v}`);
      }
    }
  }
  await page.close();
  assert.deepEqual(problems, []);
}

test('signed out: no page scrolls sideways at 320/390/768 px, and axe finds nothing at 390 and 1280 px', { timeout: 600000 }, async () => {
  await sweep(PUBLIC_PAGES.map((p) => `${BASE}${p}`));
});

test('signed in: no page scrolls sideways at 320/390/768 px, and axe finds nothing at 390 and 1280 px', { timeout: 900000 }, async () => {
  const user = await paidUser();
  await sweep(DASHBOARD_PAGES.map((p) => `${BASE}/dashboard/${user.account_id}/${p}`), user);
  // A trial user too (banner, trial plan card), and one whose trial has ended is covered by the overlay tests.
  const trial = await apiUser('ux-trial');
  await sweep(['testimonials', 'account-settings/plan', 'plans?for=trial_expired'].map((p) => `${BASE}/dashboard/${trial.account_id}/${p}`), trial);
});

test('invoices on a phone: stacked rows with status and download inside the screen', { timeout: 300000 }, async () => {
  const user = await paidUser();
  const page = await pageAt(390);
  await useSession(page, user);
  await page.goto(`${BASE}/dashboard/${user.account_id}/billing/invoices`);
  const download = page.getByRole('button', { name: /^Download invoice/ }).first();
  await download.waitFor();
  const box = await download.boundingBox();
  assert.ok(box.x + box.width <= 390, `download button inside the screen (right edge ${box.x + box.width})`);
  const status = page.getByText('Paid', { exact: true }).first();
  const sbox = await status.boundingBox();
  assert.ok(sbox.x + sbox.width <= 390, 'status inside the screen');
  const number = (await api('GET', `/v1/accounts/${user.account_id}/billing`, undefined, user.token)).body.invoices[0].invoice_url;
  const nbox = await page.getByText(number, { exact: true }).boundingBox();
  assert.ok(nbox.height < 30, `the invoice number stays on one line (${nbox.height}px high)`);
  await page.close();
});

test('a trial user who looks to upgrade is not told the trial has ended', async () => {
  const user = await apiUser('ux-upgrade');
  for (const width of [1280, 390]) {
    const page = await pageAt(width);
    await useSession(page, user);
    await page.goto(`${BASE}/dashboard/${user.account_id}/testimonials`);
    await page.getByRole('link', { name: 'Looking to upgrade?' }).click();
    await page.waitForURL(/\/plans/);
    await page.getByRole('heading', { level: 1 }).waitFor();
    const heading = await page.getByRole('heading', { level: 1 }).textContent();
    assert.doesNotMatch(heading, /ended|expired/i, `heading: ${heading}`);
    await page.getByRole('region', { name: 'Pro' }).getByRole('button', { name: 'Start with Pro' }).waitFor();
    // Even the old link with for=trial_expired tells the truth.
    await page.goto(`${BASE}/dashboard/${user.account_id}/plans?for=trial_expired`);
    await page.getByRole('region', { name: 'Pro' }).getByRole('button', { name: 'Start with Pro' }).waitFor();
    assert.equal(await page.getByText('Your trial has ended', { exact: false }).count(), 0);
    await page.close();
  }
});

const POPUP = 'Whoops.. There was an error.';

test('one error at a time: a wrong password, the OIDC callback error page and a reset mismatch raise no second popup', async () => {
  const user = await apiUser('ux-errors');
  for (const width of [1280, 390]) {
    const page = await pageAt(width);
    await page.goto(`${BASE}/signin`);
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByLabel('Password').fill('Wrong1!pass');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText('The e-mail address or password is not correct.').waitFor();
    await page.waitForTimeout(500);
    assert.equal(await page.getByText(POPUP).count(), 0, 'no popup beside the inline message');

    await page.goto(`${BASE}/auth/callback`);
    await page.getByText('Something went wrong...').waitFor();
    await page.waitForTimeout(500);
    assert.equal(await page.getByText(POPUP).count(), 0, 'no popup over the callback error page');
    await page.close();
  }
  // A reset link: the mismatch popup (SPEC §8, 444) must not outlive the
  // success card.
  const page = await pageAt(1280);
  await api('POST', '/v1/auth/password-reset-token', { email: user.email });
  const { link } = await waitForLink(user.email, 'reset-password?token=');
  await page.goto(link);
  await page.getByLabel('New password').fill('Another1!');
  await page.getByLabel('Repeat password').fill('Another2!');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await page.getByText(POPUP).waitFor();
  await page.getByLabel('Repeat password').fill('Another1!');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await page.getByText('Password changed').waitFor();
  assert.equal(await page.getByText(POPUP).count(), 0, 'success clears the popup');
  await page.close();
});

test('a used reset link and a used activation link lead to "request a new one", not "not found"', async () => {
  const user = await apiUser('ux-dead', { activate: false });
  const { link: activation } = await waitForLink(user.email, 'confirm-email?token=');
  assert.equal((await api('PUT', '/v1/auth/activate-user', { token: new URL(activation).searchParams.get('token') })).status, 200);
  await api('POST', '/v1/auth/password-reset-token', { email: user.email });
  const { link: reset } = await waitForLink(user.email, 'reset-password?token=');
  const token = new URL(reset).searchParams.get('token');
  assert.ok((await api('POST', '/v1/auth/reset-password', { token, password: 'Another1!' })).status < 300);
  for (const width of [1280, 390]) {
    const page = await pageAt(width);
    await page.goto(reset);
    await page.getByLabel('New password').fill('Third1!pass');
    await page.getByLabel('Repeat password').fill('Third1!pass');
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.getByRole('heading', { name: 'This link does not work' }).waitFor();
    await page.getByRole('link', { name: 'Request a new reset link' }).waitFor();
    assert.equal(await page.getByText('What you asked for was not found.').count(), 0);

    await page.goto(activation.replace(/token=[^&]+/, 'token=used-or-unknown'));
    await page.getByRole('heading', { name: 'This link does not work' }).waitFor();
    assert.equal(await page.getByText('What you asked for was not found.').count(), 0);
    await page.close();
  }
});

test('back from the checkout: checked at once, then "Welcome to Pro" with the renewal date', { timeout: 120000 }, async () => {
  const user = await apiUser('ux-welcome');
  assert.equal((await api('PATCH', `/v1/accounts/${user.account_id}/billing-address`, ADDRESS, user.token)).status, 200);
  const page = await pageAt(390);
  await useSession(page, user);
  await page.goto(`${BASE}/dashboard/${user.account_id}/plans?for=plan_upgrade`);
  await page.getByRole('region', { name: 'Pro' }).getByRole('button', { name: 'Start with Pro' }).click();
  await payOnSandbox(page);
  await page.waitForURL(/\/account-settings\/plan/, { timeout: 30000 });
  const welcome = page.getByRole('status').filter({ hasText: 'Welcome to Pro' });
  await welcome.waitFor({ timeout: 30000 });
  await welcome.getByText(/\d\d\/\d\d\/\d\d/).waitFor();
  await page.close();
});

test('privacy policy and terms of use are real pages, linked from sign-up and the footer; SEO basics', async () => {
  const page = await pageAt(1280);
  await page.goto(`${BASE}/signup`);
  const terms = await page.getByRole('link', { name: 'Terms of Use' }).getAttribute('href');
  await page.goto(new URL(terms, BASE).href);
  await page.getByRole('heading', { level: 1, name: 'Terms of use' }).waitFor();
  await page.getByText(/placeholder/i).first().waitFor();
  await page.goto(`${BASE}/privacy-policy`);
  await page.getByRole('heading', { level: 1, name: 'Privacy policy' }).waitFor();
  const user = await apiUser('ux-legal');
  await useSession(page, user);
  await page.goto(`${BASE}/dashboard/${user.account_id}/testimonials`);
  await page.getByRole('link', { name: 'Privacy policy' }).click();
  await page.getByRole('heading', { level: 1, name: 'Privacy policy' }).waitFor();

  await page.goto(`${BASE}/signin`);
  const description = await page.locator('meta[name="description"]').getAttribute('content');
  assert.ok(description && description.length > 50, `meta description: ${description}`);
  const robots = await fetch(`${BASE}/robots.txt`);
  assert.equal(robots.status, 200);
  assert.match(await robots.text(), /User-agent: \*/);
  await page.close();
});

test('two-column form rows stay aligned when one field shows a message', async () => {
  for (const width of [1280, 390]) {
    const page = await pageAt(width);
    await page.goto(`${BASE}/signup`);
    await page.getByLabel('Last name').fill('Lovelace');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByText('*field required').first().waitFor();
    const first = await page.getByLabel('First name').boundingBox();
    const last = await page.getByLabel('Last name').boundingBox();
    if (Math.abs(first.x - last.x) > 5) assert.equal(first.y, last.y, 'side by side inputs share a top edge');
    await page.close();
  }
});

test('a slow account load draws the shell at once, with skeletons', async () => {
  const user = await apiUser('ux-loading');
  for (const width of [1280, 390]) {
    const page = await pageAt(width);
    await useSession(page, user);
    let release;
    const held = new Promise((r) => { release = r; });
    await page.route(`**/v1/accounts/${user.account_id}`, async (route) => { await held; await route.continue(); });
    await page.goto(`${BASE}/dashboard/${user.account_id}/testimonials`, { waitUntil: 'commit' });
    // Before the account arrives (it is held) the frame stands: the header with the brand and a busy page.
    await page.locator('header').getByText('Kudos').first().waitFor({ timeout: 5000 });
    await page.locator('[aria-busy="true"]').first().waitFor({ timeout: 5000 });
    release();
    await page.getByRole('heading', { name: 'Testimonials', level: 1 }).waitFor();
    await page.close();
  }
});

test('after a language switch no English is left on any page', { timeout: 600000 }, async () => {
  const user = await paidUser();
  for (const lang of ['nl', 'fr']) {
    const english = englishOnly(lang);
    const page = await pageAt(1280);
    await useSession(page, user);
    await api('PATCH', `/v1/accounts/${user.account_id}/user`, { preferred_language: lang }, user.token);
    // Switch once the sign-in page has settled (its start-up writes the language it detected).
    await settle(page);
    await page.evaluate((l) => localStorage.setItem('language', l), lang);
    await page.goto(`${BASE}/signin`);
    await page.waitForFunction((l) => document.documentElement.lang === l, lang);
    const found = [];
    const urls = [...PUBLIC_PAGES.filter((p) => p !== '/signin').map((p) => `${BASE}${p}`),
      ...DASHBOARD_PAGES.map((p) => `${BASE}/dashboard/${user.account_id}/${p}`)];
    for (const url of urls) {
      await page.goto(url);
      await settle(page);
      const text = await page.evaluate(() => document.body.innerText);
      for (const line of text.split('\n').map((l) => l.trim()).filter(Boolean)) {
        if (english.has(line)) found.push(`${lang} ${url}: "${line}"`);
      }
    }
    await page.close();
    assert.deepEqual(found, []);
  }
  await api('PATCH', `/v1/accounts/${user.account_id}/user`, { preferred_language: 'en' }, user.token);
});
