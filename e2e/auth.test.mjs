// Authentication journeys of issue 3 in a real browser against the full
// stack: mails are read from the dev mailbox, Google is the local provider.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launch, openPage, uniqueEmail, waitForLink, api } from './lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** Goes through the onboarding wizard as a new user does, if it is open. */
async function dismissOnboarding(page) {
  const welcome = page.getByRole('heading', { name: 'Welcome to Kudos!' });
  if (!(await welcome.isVisible().catch(() => false))) return;
  await page.getByLabel('Account name').fill('Analytical Engines');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Skip for now' }).click();
  await page.getByRole('button', { name: 'Finish' }).click();
  await welcome.waitFor({ state: 'hidden' });
}

/** Fills the sign-up form (on /signup) for email and sends it. */
async function fillSignup(page, email) {
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Lovelace');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill('Secret1!');
  await page.getByRole('checkbox', { name: /Terms of Use/ }).check();
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.waitForURL(/\/registered\?created=/);
}

/**
 * Signs up on /signup with Google as email (a verified identity of the local
 * provider) and returns the function that queues that identity again.
 */
async function googleSignup(page, email) {
  const queue = () => api('POST', '/dev/oidc/identities', { subject: `sub-${email}`, email, email_verified: true });
  assert.equal((await queue()).status, 204);
  await page.goto(`${BASE}/signup`);
  await page.getByRole('checkbox', { name: /Terms of Use/ }).check();
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await page.waitForURL(/\/registered\?created=/, { timeout: 15000 });
  return queue;
}

async function signOut(page) {
  await dismissOnboarding(page);
  await page.getByRole('button', { name: /User menu/ }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await page.waitForURL(/\/signin/);
  assert.equal(await page.evaluate(() => localStorage.getItem('auth_token')), null);
}

async function signIn(page, email, password) {
  await page.goto(`${BASE}/signin`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(/\/dashboard\/[0-9a-f-]{36}\/testimonials/);
}

test('sign up, activate by mail, sign out, sign in, reset the password', async () => {
  const page = await openPage(browser.context);
  const email = uniqueEmail('journey');
  await page.goto(`${BASE}/signup`);
  // Submitting empty shows the SPEC §5 messages and sends nothing.
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.getByText('*email is required').waitFor();
  await page.getByText('*please accept Terms of Use to continue').waitFor();

  await fillSignup(page, email);
  await page.getByText(email).waitFor();

  // Resend works and says so.
  await page.getByRole('button', { name: 'Resend activation e-mail' }).click();
  await page.getByText('New activation token sent.').waitFor();

  const { link } = await waitForLink(email, 'confirm-email?token=');
  assert.ok(link.startsWith(BASE), `activation link ${link} points at the app`);
  await page.goto(link);
  await page.getByText('E-mail confirmed').waitFor();
  await page.waitForURL(/\/dashboard\/[0-9a-f-]{36}\/testimonials/, { timeout: 10000 });
  const token = await page.evaluate(() => localStorage.getItem('auth_token'));
  assert.ok(token, 'the session is stored');
  await page.getByRole('heading', { name: 'Welcome to Kudos!' }).waitFor();

  await signOut(page);
  await signIn(page, email, 'Secret1!');
  await signOut(page);

  // Wrong password: an error, and no session.
  await page.goto(`${BASE}/signin`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill('Wrong1!xx');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByText('The e-mail address or password is not correct.').waitFor();
  assert.equal(await page.evaluate(() => localStorage.getItem('auth_token')), null);

  // Forgot password → mail → new password → sign in with it.
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await page.waitForURL(/\/auth\/request-password-reset/);
  // The address changes before the page does: until the reset form is
  // there, 'E-mail' is still the sign-in form's field (seen under load).
  await page.getByRole('button', { name: 'Send reset link' }).waitFor();
  const sentAt = Date.now() - 1000;
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await page.getByText(/Link sent!/).waitFor();
  const reset = await waitForLink(email, 'reset-password?token=', { after: sentAt });
  await page.goto(reset.link);
  await page.getByLabel('New password').fill('Newpass1!');
  await page.getByLabel('Repeat password').fill('Different1!');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await page.getByText(/passwords do not match/i).first().waitFor();
  await page.getByLabel('Repeat password').fill('Newpass1!');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await page.getByText('Password changed').waitFor();
  await signIn(page, email, 'Newpass1!');
  assert.deepEqual(page.consoleErrors.filter((e) => !/status of 401/.test(e)), []);
  await page.close();
});

test('Google sign-up and sign-in through the local OIDC provider', async () => {
  const page = await openPage(browser.context);
  const email = uniqueEmail('google');
  const queue = await googleSignup(page, email);
  assert.match(page.url(), new RegExp(encodeURIComponent(email).replace(/\./g, '\\.')));

  const { link, message } = await waitForLink(email, 'confirm-email?token=');
  // Google gave no name: none is made up, the mail greets plainly.
  assert.doesNotMatch(message.text, /Unknown/);
  assert.match(message.text, /Hello,/);
  await page.goto(link);
  await page.waitForURL(/\/dashboard\/[0-9a-f-]{36}\/testimonials/, { timeout: 10000 });
  await page.getByRole('heading', { name: 'Welcome to Kudos!' }).waitFor();
  // Onboarding asks for the name; until then the shell shows the e-mail (SPEC §2, unit-tested).
  await page.getByLabel('Your first name').fill('Grace');
  await page.getByLabel('Your last name').fill('Hopper');
  await dismissOnboarding(page);
  await page.getByRole('button', { name: 'Grace Hopper User menu' }).waitFor();
  await signOut(page);

  assert.equal((await queue()).status, 204);
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await page.waitForURL(/\/dashboard\/[0-9a-f-]{36}\/testimonials/, { timeout: 15000 });
  await page.close();
});

test('an activation link opened in another browser confirms the address but signs no one in there', async () => {
  const page = await openPage(browser.context);
  const email = uniqueEmail('elsewhere');
  await page.goto(`${BASE}/signup`);
  await fillSignup(page, email);
  const { link } = await waitForLink(email, 'confirm-email?token=');

  const other = await openPage(browser.context); // a context of its own: another browser
  await other.goto(link);
  await other.getByText('Your e-mail address is confirmed. Sign in to continue.').waitFor();
  assert.equal(await other.evaluate(() => localStorage.getItem('auth_token')), null);
  await other.getByRole('link', { name: 'Sign in' }).click();
  await signIn(other, email, 'Secret1!');
  await other.close();
  await page.close();
});

test('Google without a verified address: the callback says so, and no user is made', async () => {
  const page = await openPage(browser.context);
  const email = uniqueEmail('unverified');
  assert.equal((await api('POST', '/dev/oidc/identities', { subject: `sub-${email}`, email, email_verified: false })).status, 204);
  await page.goto(`${BASE}/signup`);
  await page.getByRole('checkbox', { name: /Terms of Use/ }).check();
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await page.getByText('Google has not verified this e-mail address.', { exact: false }).waitFor({ timeout: 15000 });
  assert.equal(await page.evaluate(() => localStorage.getItem('auth_token')), null);
  assert.equal((await api('POST', '/v1/auth/signin', { email, password: 'Secret1!' })).status, 401);
  await page.close();
});

test('a Google-only user sets a password after signing in with Google again (step-up)', async () => {
  const page = await openPage(browser.context);
  const email = uniqueEmail('stepup');
  const queue = await googleSignup(page, email);
  const { link } = await waitForLink(email, 'confirm-email?token=');
  await page.goto(link);
  await page.waitForURL(/\/dashboard\/([0-9a-f-]{36})\/testimonials/, { timeout: 10000 });
  await page.getByLabel('Your first name').fill('Grace');
  await page.getByLabel('Your last name').fill('Hopper');
  await dismissOnboarding(page);
  const account = page.url().match(/dashboard\/([0-9a-f-]{36})/)[1];

  const setPassword = async () => {
    await page.getByLabel('New password').fill('Chosen1!x');
    await page.getByLabel('Repeat password').fill('Chosen1!x');
    await page.getByRole('button', { name: 'Change password' }).click();
  };
  await page.goto(`${BASE}/dashboard/${account}/account-settings/personal-details`);
  await setPassword();
  await page.getByText('For your security, confirm it is you').waitFor();
  assert.equal((await api('POST', '/v1/auth/signin', { email, password: 'Chosen1!x' })).status, 401);

  assert.equal((await queue()).status, 204);
  // Google, then the callback, bring the browser back to this page.
  const stepUp = page.waitForResponse((r) => r.url().includes('/v1/auth/callback'), { timeout: 15000 });
  await page.getByRole('button', { name: 'Confirm with Google' }).click();
  assert.equal((await stepUp).status(), 200);
  await page.waitForURL(/\/account-settings\/personal-details/, { timeout: 15000 });
  await setPassword();
  await page.getByText('Your password has been changed.').waitFor();
  assert.equal((await api('POST', '/v1/auth/signin', { email, password: 'Chosen1!x' })).status, 201);
  await page.close();
});

test('the callback without code or state says something went wrong', async () => {
  const page = await openPage(browser.context);
  await page.goto(`${BASE}/auth/callback`);
  await page.getByText('Something went wrong...').waitFor();
  await page.getByRole('link', { name: /sign in/i }).waitFor();
  await page.close();
});
