// Passkeys of issue 29 in a real browser: Chromium's virtual WebAuthn
// authenticator (DevTools protocol) holds the passkey. A user adds one in
// personal details (their first second factor: recovery codes are shown),
// signs out, signs in with the password and meets the challenge with the
// passkey, signs out, signs in with it alone and lands on the dashboard,
// then removes it, after which it no longer signs in; axe finds nothing on
// the card.
//
// Browsers refuse an IP address as WebAuthn RP id: the instance's
// KUDOS_PUBLIC_URL is http://127.0.0.1:<port>, whose RP id is localhost, so
// the browser opens the app at its localhost twin.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launch, openPage, apiUser, useSession, axeViolations } from './lib.mjs';

const LOCAL = BASE.replace('//127.0.0.1:', '//localhost:');

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** Gives page's browser a platform authenticator that verifies its user (fingerprint, PIN) and keeps passkeys. */
async function virtualAuthenticator(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true,
      isUserVerified: true, automaticPresenceSimulation: true },
  });
  const credentials = async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
  return { credentials };
}

async function signOut(page) {
  await page.getByRole('button', { name: /User menu/ }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await page.waitForURL(/\/signin/);
}

test('a passkey added in personal details signs in alone, and no longer once removed', { timeout: 180000 }, async () => {
  const page = await openPage(browser.context);
  const authenticator = await virtualAuthenticator(page);
  const user = await apiUser('passkey');
  await useSession(page, user, LOCAL);
  const details = `${LOCAL}/dashboard/${user.account_id}/account-settings/personal-details`;
  await page.goto(details);
  await page.getByText('You have no passkey yet.').waitFor();

  await page.getByRole('button', { name: 'Add a passkey' }).click();
  const add = page.getByRole('dialog', { name: 'Add a passkey' });
  await add.getByLabel('Name').fill('This browser');
  await add.getByLabel('Current password').fill('Secret1!');
  await add.getByRole('button', { name: 'Create the passkey' }).click();
  await page.getByRole('status').filter({ hasText: 'Passkey “This browser” added.' }).waitFor();
  await add.waitFor({ state: 'hidden' });
  const list = page.getByRole('list', { name: 'Your passkeys' });
  await list.getByText('This browser').waitFor();
  assert.match(await list.innerText(), /never used/);
  const held = await authenticator.credentials();
  assert.equal(held.length, 1, 'the authenticator keeps one passkey');
  assert.equal(held[0].isResidentCredential, true, 'a discoverable passkey');
  assert.equal(held[0].rpId, 'localhost');
  const codes = page.getByRole('list', { name: 'Your recovery codes' }).getByRole('listitem');
  assert.equal(await codes.count(), 10, 'the first passkey comes with ten recovery codes, shown once');
  assert.deepEqual(await axeViolations(page), [], 'axe on personal details with the passkeys card');
  await page.getByRole('button', { name: /I have saved them/ }).click();

  // A passkey is a second factor: a password sign-in now asks for it.
  await signOut(page);
  await page.getByLabel('E-mail').fill(user.email);
  await page.getByLabel('Password').fill('Secret1!');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(/\/signin\/verify/);
  assert.equal(await page.evaluate(() => localStorage.getItem('auth_token')), null, 'no session before the second factor');
  assert.equal(await page.getByLabel('Authentication code').count(), 0, 'no app code asked for without an app');
  await page.getByRole('button', { name: 'Use a passkey' }).click();
  await page.waitForURL(new RegExp(`/dashboard/${user.account_id}/testimonials`));
  assert.ok(await page.evaluate(() => localStorage.getItem('auth_token')), 'signed in with password and passkey');

  await signOut(page);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await page.waitForURL(new RegExp(`/dashboard/${user.account_id}/testimonials`));
  assert.ok(await page.evaluate(() => localStorage.getItem('auth_token')), 'signed in');
  assert.deepEqual(page.consoleErrors, []);

  await page.goto(details);
  await list.getByText(/last used/).waitFor();
  await page.getByRole('button', { name: 'Remove This browser' }).click();
  const remove = page.getByRole('dialog', { name: 'Remove this passkey?' });
  await remove.getByLabel('Current password').fill('Secret1!');
  await remove.getByRole('button', { name: 'Remove the passkey' }).click();
  await page.getByRole('status').filter({ hasText: 'Passkey “This browser” removed.' }).waitFor();
  await page.getByText('You have no passkey yet.').waitFor();

  // The authenticator still holds it, but the server no longer knows it.
  await signOut(page);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await page.getByRole('alert').filter({ hasText: 'This passkey was not accepted.' }).waitFor();
  assert.match(page.url(), /\/signin/);
  assert.equal(await page.evaluate(() => localStorage.getItem('auth_token')), null);
  await page.close();
});
