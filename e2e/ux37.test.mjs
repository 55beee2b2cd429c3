// Issue 37 in a real browser: the pages issues 26 to 36 added, swept in en,
// nl and fr at desktop and phone width, and the plan buttons a scheduled
// deletion disables. A long file: make test runs it ALONE, on an instance of
// its own, beside ux.test.mjs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { BASE, BILLING_ADDRESS as ADDRESS, launch, apiUser, useSession, api, waitForLink, until, axeViolations } from './lib.mjs';
import * as ux from './ux-lib.mjs';
import { settle, sideways, englishOnly } from './ux-lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const pageAt = (width, height) => ux.pageAt(browser, width, height);
const paidUser = () => ux.paidUser(browser);

// Issue 37: the pages issues 26 to 36 added — team with a pending
// invitation, the invitation page, a data export, two-factor enrolment,
// passkeys and signed-in devices, an account being deleted (its banner and
// the plan buttons it disables) — at desktop and phone width in en, nl and
// fr: axe finds nothing, nothing scrolls sideways, no English is left. One
// test a language (each about a third of the sweep, with its own time
// limit); the users and states are set up once, by the first.
let issue37SetUp;
const issue37States = () => (issue37SetUp ??= (async () => {
  const owner = await paidUser();
  const invitee = `ux37-invitee-${Date.now()}@example.com`;
  assert.equal((await api('POST', `/v1/accounts/${owner.account_id}/invitations`, { email: invitee, role: 'member' }, owner.token)).status, 201);
  const { link: invitation } = await waitForLink(invitee, 'invitation?token=');
  const started = await api('POST', '/v1/users/me/export', undefined, owner.token);
  assert.equal(started.status, 202);
  const leaving = await apiUser('ux37-deleting');
  assert.equal((await api('DELETE', `/v1/accounts/${leaving.account_id}`, { current_password: 'Secret1!' }, leaving.token)).status, 202);

  const dash = (user, path) => `${BASE}/dashboard/${user.account_id}/${path}`;
  const states = [
    { user: owner, url: dash(owner, 'team') },
    { user: owner, url: dash(owner, `exports/${started.body.export_id}`) },
    { user: owner, url: dash(owner, 'account-settings/personal-details') },
    // Two-factor enrolment's next step (QR code, key, code field).
    { user: owner, url: dash(owner, 'account-settings/personal-details'), click: 'two_factor' },
    { user: leaving, url: dash(leaving, 'testimonials'), banner: true },
    { user: leaving, url: dash(leaving, 'account-settings/plan'), banner: true },
    { user: leaving, url: dash(leaving, 'plans'), banner: true },
    { user: null, url: invitation },
  ];
  return { users: [owner, leaving], states };
})());

for (const lang of ['en', 'nl', 'fr']) {
  test(`issue 37 in ${lang}: team, invitation, export, two-factor, passkeys and the deletion banner at 1280 and 390 px`, { timeout: 600000 }, async () => {
    const { users, states } = await issue37States();
    const problems = [];
    const english = lang === 'en' ? new Set() : englishOnly(lang);
    const mfa = JSON.parse(readFileSync(new URL(`../ui/src/locales/${lang}/mfa.json`, import.meta.url), 'utf8'));
    for (const u of users) await api('PATCH', `/v1/accounts/${u.account_id}/user`, { preferred_language: lang }, u.token);
    try {
      for (const state of states) {
        const page = await pageAt(1280);
        try {
          await sweepState(page, state, lang, mfa, english, problems);
        } finally {
          await page.close();
        }
      }
    } finally {
      for (const u of users) await api('PATCH', `/v1/accounts/${u.account_id}/user`, { preferred_language: 'en' }, u.token);
    }
    assert.deepEqual(problems, []);
  });
}

// sweepState opens state on page in lang, looks at it at 1280 and then,
// the window resized, at 390 px, and adds what it finds wrong to problems.
async function sweepState(page, state, lang, mfa, english, problems) {
  if (state.user) {
    await useSession(page, state.user);
    await page.evaluate((l) => localStorage.setItem('language', l), lang);
  } else {
    // Signed out, as opened from a mail: the stored choice is in place
    // before the app's first script runs. Set after /signin's load
    // instead, that page's own start could still write its language
    // over it (the dashboard states correct it from the user's
    // preferred language; a signed-out page has nothing to correct it).
    await page.addInitScript((l) => localStorage.setItem('language', l), lang);
  }
  await page.goto(state.url);
  const named = `${state.url.replace(BASE, '')}${state.click ? ' (enrolling)' : ''}`;
  const where = `${lang} ${named}`;
  // A page left in another language is a finding of its own, named with its state.
  const inLanguage = await page.waitForFunction((l) => document.documentElement.lang === l, lang).then(() => true, () => false);
  if (!inLanguage) {
    problems.push(`${where}: <html lang> is ${await page.evaluate(() => document.documentElement.lang)}, not ${lang}`);
    return;
  }
  await settle(page);
  if (state.click) {
    const setUp = page.getByRole('button', { name: mfa.card.set_up });
    await setUp.click();
    // A session signed in a while ago is asked for the current password first.
    const secret = page.locator('[data-testid="totp-secret"]');
    const password = page.locator('#mfa-set-up-password');
    await until('the enrolment or its password prompt', async () => (await secret.count()) > 0 || (await password.count()) > 0, 30000);
    if (!(await secret.count())) {
      await password.first().fill('Secret1!');
      await setUp.click();
    }
    await secret.waitFor();
    await settle(page);
  }
  for (const width of [1280, 390]) {
    const at = `${lang} ${width}px ${named}`;
    await ux.resize(page, width);
    await settle(page);
    if (state.banner && (await page.getByTestId('deletion-banner').count()) === 0) problems.push(`${at}: no deletion banner`);
    const over = await sideways(page);
    if (over > 0) problems.push(`${at}: scrolls sideways by ${over}px`);
    for (const v of await axeViolations(page)) problems.push(`${at}: axe ${v}`);
    const text = await page.evaluate(() => document.body.innerText);
    for (const line of text.split('\n').map((l) => l.trim()).filter(Boolean)) {
      if (english.has(line)) problems.push(`${at}: English left "${line}"`);
    }
  }
}

test('issue 37: during a scheduled deletion the plan buttons are disabled with the reason beside them', { timeout: 300000 }, async () => {
  const user = await apiUser('ux37-locked');
  assert.equal((await api('PATCH', `/v1/accounts/${user.account_id}/billing-address`, ADDRESS, user.token)).status, 200);
  assert.equal((await api('DELETE', `/v1/accounts/${user.account_id}`, { current_password: 'Secret1!' }, user.token)).status, 202);
  const refused = await api('POST', `/v1/accounts/${user.account_id}/subscription`, { plan: 'PRO' }, user.token);
  assert.equal(refused.status, 409);
  assert.equal(refused.body.error.code, 'account_being_deleted');
  for (const width of [1280, 390]) {
    const page = await pageAt(width);
    await useSession(page, user);
    await page.goto(`${BASE}/dashboard/${user.account_id}/plans`);
    const buy = page.getByRole('region', { name: 'Pro' }).getByRole('button', { name: 'Start with Pro' });
    await buy.waitFor();
    assert.ok(await buy.isDisabled(), 'buying is disabled');
    const reason = await buy.evaluate((b) => document.getElementById(b.getAttribute('aria-describedby'))?.textContent ?? '');
    assert.match(reason, /This account is being deleted on .* cancel the deletion to change the plan/);
    await page.close();
  }
});
