// Two-factor sign-in (issue 29) in a real browser: enrol an authenticator
// app in personal details (the codes are computed here from the key the
// card shows, with node's HMAC), sign out, sign in through the challenge
// screen with a code, then with a recovery code, whose use is mailed; a
// session from before the enrolment changing the password is asked for the
// code in the step-up dialog, and the change then goes through.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { BASE, launch, openPage, api, apiUser, useSession, waitForLink, axeViolations, until } from './lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** RFC 4648 base32 (no padding) to bytes. */
function base32(text) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const c of text.replace(/=+$/, '')) bits += alphabet.indexOf(c).toString(2).padStart(5, '0');
  const out = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) out.push(parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(out);
}

/** The RFC 6238 code (SHA-1, 6 digits, 30 s) of secret at step. */
function totp(secret, step) {
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', secret).update(msg).digest();
  const off = mac[mac.length - 1] & 0x0f;
  return String((mac.readUInt32BE(off) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

const stepNow = () => Math.floor(Date.now() / 30000);

/** The next step whose code the server takes: after `used` (each step once), at most one ahead of now. */
async function nextStep(used) {
  const step = Math.max(stepNow(), used + 1);
  while (step > stepNow() + 1) await new Promise((r) => setTimeout(r, 500));
  return step;
}

async function signOut(page) {
  await page.getByRole('button', { name: /User menu/ }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await page.waitForURL(/\/signin/);
}

async function signInToChallenge(page, email) {
  await page.goto(`${BASE}/signin`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill('Secret1!');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(/\/signin\/verify/);
}

test('enrol an authenticator app, sign in with a code, then with a recovery code (mailed)', async () => {
  const user = await apiUser('two-factor');
  // A second device, signed in before the enrolment: its session never met the second factor.
  const before = (await api('POST', '/v1/auth/signin', { email: user.email, password: 'Secret1!' })).body;
  assert.ok(before.token, 'a session before the enrolment');
  const page = await openPage(browser.context);
  await useSession(page, user);
  await page.goto(`${BASE}/dashboard/${user.account_id}/account-settings/personal-details`);
  await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
  const key = (await page.getByTestId('totp-secret').textContent()).trim();
  const secret = base32(key);
  await page.getByRole('img', { name: 'QR code to add Kudos to your authenticator app' }).waitFor();
  assert.deepEqual(await axeViolations(page), [], 'axe on the enrolment');

  let used = stepNow();
  await page.getByLabel('6-digit code from the app').fill(totp(secret, used));
  await page.getByRole('button', { name: 'Turn on' }).click();
  const list = page.getByRole('list', { name: 'Your recovery codes' });
  await list.waitFor();
  const codes = (await list.getByRole('listitem').allTextContents()).map((c) => c.trim());
  assert.equal(codes.length, 10);
  await page.getByRole('button', { name: 'I have saved them' }).click();
  await page.getByText(/On: an authenticator app is set up/).waitFor();
  assert.deepEqual(await axeViolations(page), [], 'axe on the card');

  // Sign out; the password alone leads to the challenge, no session.
  await signOut(page);
  await signInToChallenge(page, user.email);
  assert.equal(await page.evaluate(() => localStorage.getItem('auth_token')), null);
  const field = page.getByLabel('Authentication code');
  assert.equal(await field.getAttribute('autocomplete'), 'one-time-code');
  assert.deepEqual(await axeViolations(page), [], 'axe on the challenge screen');
  used = await nextStep(used);
  await field.fill(totp(secret, used));
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.waitForURL(/\/dashboard\/[0-9a-f-]{36}\/testimonials/);

  // The sessions card says how this session signed in.
  await page.goto(`${BASE}/dashboard/${user.account_id}/account-settings/personal-details`);
  await page.getByText('Password + authenticator app').first().waitFor();

  // A recovery code signs in once, and the use is mailed.
  const since = Date.now();
  await signOut(page);
  await signInToChallenge(page, user.email);
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await page.getByLabel('Recovery code').fill(codes[0]);
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.waitForURL(/\/dashboard\/[0-9a-f-]{36}\/testimonials/);
  const { message } = await waitForLink(user.email, 'recovery codes', { purpose: 'mfa_recovery_used', after: since - 1000 });
  assert.equal(message.purpose, 'mfa_recovery_used');

  await signOut(page);
  await signInToChallenge(page, user.email);
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await page.getByLabel('Recovery code').fill(codes[0]);
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.getByRole('alert').filter({ hasText: 'That code did not work' }).waitFor();
  assert.match(page.url(), /\/signin\/verify/);

  // Step-up: the older session changes the password; the dialog asks for the code, then it is done.
  const other = await openPage(browser.context);
  await useSession(other, { ...before, email: user.email });
  await other.goto(`${BASE}/dashboard/${user.account_id}/account-settings/personal-details`);
  await other.locator('#current-password').fill('Secret1!');
  await other.getByLabel('New password').fill('Changed1!');
  await other.getByLabel('Repeat password').fill('Changed1!');
  await other.getByRole('button', { name: 'Change password' }).click();
  const dialog = other.getByRole('dialog', { name: 'Confirm it is you' });
  await dialog.waitFor();
  assert.deepEqual(await axeViolations(other), [], 'axe on the step-up dialog');
  used = await nextStep(used);
  await dialog.getByLabel('Authentication code').fill(totp(secret, used));
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await other.getByText('Your password has been changed.').waitFor();
  assert.equal((await api('POST', '/v1/auth/signin', { email: user.email, password: 'Changed1!' })).status, 202);
});

test('the owner requires two-factor sign-in; a member without it enrols before the account opens', { timeout: 180000 }, async () => {
  const owner = await apiUser('mfa-owner');
  const member = await apiUser('mfa-member');
  // The owner's own app, through the api (the first test enrols through the card).
  const start = await api('POST', '/v1/users/me/mfa/totp', undefined, owner.token);
  assert.equal(start.status, 201);
  const ownerCode = totp(base32(start.body.secret), stepNow());
  assert.equal((await api('POST', '/v1/users/me/mfa/totp/confirm', { code: ownerCode }, owner.token)).status, 200);
  // The member joins the owner's account.
  const sentAt = Date.now() - 1000;
  assert.equal((await api('POST', `/v1/accounts/${owner.account_id}/invitations`, { email: member.email, role: 'member' }, owner.token)).status, 201);
  const { link } = await waitForLink(member.email, '/invitation?token=', { purpose: 'team_invitation', after: sentAt });
  const token = new URL(link).searchParams.get('token');
  assert.equal((await api('POST', `/v1/invitations/${encodeURIComponent(token)}/accept`, undefined, member.token)).status, 200);

  // The owner turns the policy on in account settings, confirming it.
  const page = await openPage(browser.context);
  await useSession(page, owner);
  await page.goto(`${BASE}/dashboard/${owner.account_id}/account-settings/plan`);
  const policy = page.getByRole('switch', { name: 'Require two-factor authentication' });
  await policy.click();
  await page.getByRole('alertdialog', { name: 'Require two-factor authentication?' }).getByRole('button', { name: 'Confirm' }).click();
  await until('the switch to be on', async () => (await policy.getAttribute('aria-checked')) === 'true', 15000);
  assert.deepEqual(await axeViolations(page), [], 'axe on the policy card');

  // The member is asked to enrol, enrols, and the account opens.
  const other = await openPage(browser.context);
  await useSession(other, { ...member, account_id: owner.account_id });
  await other.goto(`${BASE}/dashboard/${owner.account_id}/testimonials`);
  await other.getByRole('heading', { name: 'Two-factor authentication required' }).waitFor();
  assert.deepEqual(await axeViolations(other), [], 'axe on the enrolment-required screen');
  await other.getByRole('button', { name: 'Set up an authenticator app' }).click();
  const secret = base32((await other.getByTestId('totp-secret').textContent()).trim());
  await other.getByLabel('6-digit code from the app').fill(totp(secret, stepNow()));
  await other.getByRole('button', { name: 'Turn on' }).click();
  await other.getByRole('button', { name: 'I have saved them' }).click();
  await other.getByTestId('mfa-required').waitFor({ state: 'detached' });
  await other.getByRole('button', { name: /User menu/ }).waitFor();
});
