// Teams (issue 26) in a real browser: an owner invites a new address from
// the team page, the invitee follows the mail's link and signs up on the
// accept page with the address locked, lands in the owner's account as a
// member without billing; the owner makes them an admin and removes them,
// and their next step has no access. An existing user signs in from the
// accept page, accepts and switches accounts with the user menu's
// switcher, by keyboard. Signed in as another address, the accept page
// says so. axe-core finds no WCAG 2.1 A/AA violation on the team and
// accept pages, on a desktop and a phone.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launch, openPage, apiUser, useSession, api, uniqueEmail, waitForLink, axeViolations } from './lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const PASSWORD = 'Secret1!';

/** The accept link of the latest team_invitation mail to `to` (sent at or after `after`). */
async function invitationLink(to, after = 0) {
  const { link } = await waitForLink(to, '/invitation?token=', { purpose: 'team_invitation', after });
  return link;
}

// Sign-ups share one per-client budget across the lane's files: these tests
// make two users, and the tests run in order on the same owner's account.
let boss;
let existing;

/** The owner, made once; their account has a name of its own (apiUser names every account alike). */
async function theOwner() {
  if (boss) return boss;
  const user = await apiUser('team-owner');
  assert.equal((await api('PATCH', `/v1/accounts/${user.account_id}`, { name: 'Babbage and Co' }, user.token)).status, 200);
  boss = user;
  return user;
}

/** A user with an account of their own, made once. */
async function theExisting() {
  existing ??= await apiUser('team-existing');
  return existing;
}

/** No script error on the page (a refused request's "Failed to load resource" is the test's own doing). */
function assertNoConsoleErrors(page) {
  assert.deepEqual(page.consoleErrors.filter((e) => !/Failed to load resource/.test(e)), []);
}

/** Fails with the page's axe violations, if any. */
async function assertAxeClean(page, where) {
  // Nothing is loading any more.
  await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached', timeout: 15000 }).catch(() => {});
  assert.deepEqual(await axeViolations(page), [], `axe on ${where}`);
}

/** The member rows of the team page, as "name email role" lines. */
async function memberRows(page) {
  return page.getByTestId('member-row').evaluateAll((rows) =>
    rows.map((r) => [...r.querySelectorAll('td')].slice(0, 3).map((td) => {
      const select = td.querySelector('select');
      return select ? select.selectedOptions[0].textContent : td.textContent;
    }).join(' ')));
}

test('a new address: invited from the team page, signs up on the accept page with the address locked, joins as a member without billing; made admin, then removed', { timeout: 300000 }, async () => {
  const boss = await theOwner();
  const invitee = uniqueEmail('team-new');
  const teamUrl = `${BASE}/dashboard/${boss.account_id}/team`;

  const ownerPage = await openPage(browser.context);
  await useSession(ownerPage, boss);
  await ownerPage.goto(teamUrl);
  await ownerPage.getByText('1 of 10 seats used').waitFor();
  await ownerPage.getByText('Just you so far — invite a colleague.').waitFor();
  await assertAxeClean(ownerPage, 'the team page, alone');

  // Invite, through the dialog.
  const sentAt = Date.now() - 1000;
  await ownerPage.getByRole('button', { name: 'Invite a member' }).click();
  const dialog = ownerPage.getByRole('dialog', { name: 'Invite a member' });
  await dialog.getByLabel('E-mail').fill(invitee);
  assert.equal(await dialog.getByLabel('Role').inputValue(), 'member');
  await assertAxeClean(ownerPage, 'the invite dialog');
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await ownerPage.getByText(`Invitation sent to ${invitee}.`).waitFor();
  const pending = ownerPage.getByRole('table', { name: 'Pending invitations' });
  await pending.getByText(invitee).waitFor();
  await ownerPage.getByText('2 of 10 seats used').waitFor();
  // The same address again: the dialog says it has a pending invitation.
  await ownerPage.getByRole('button', { name: 'Invite a member' }).click();
  await dialog.getByLabel('E-mail').fill(invitee);
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await dialog.getByText(/already has a pending invitation: resend it from the list/).waitFor();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await assertAxeClean(ownerPage, 'the team page with an invitation');

  // The invitee follows the mail's link and signs up there.
  const link = await invitationLink(invitee, sentAt);
  assert.ok(link.startsWith(`${BASE}/invitation?token=`), link);
  const page = await openPage(browser.context);
  await page.goto(link);
  await page.getByRole('heading', { level: 1, name: 'Join Babbage and Co' }).waitFor();
  await page.getByText('Ada Lovelace invited you to join Babbage and Co on Kudos as a member.').waitFor();
  const email = page.getByLabel('E-mail');
  assert.equal(await email.inputValue(), invitee);
  assert.equal(await email.getAttribute('readonly'), '', 'the invited address is read-only');
  await assertAxeClean(page, 'the accept page, signed out');
  await page.getByLabel('First name').fill('Grace');
  await page.getByLabel('Last name').fill('Hopper');
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('checkbox', { name: /Terms of Use/ }).click();
  await page.getByRole('button', { name: 'Sign up' }).click();
  // Straight into the owner's account: no activation mail, no account of their own.
  await page.waitForURL(`${BASE}/dashboard/${boss.account_id}/testimonials`);
  await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
  const memberToken = await page.evaluate(() => localStorage.getItem('auth_token'));
  const mine = (await api('GET', '/v1/accounts', undefined, memberToken)).body.accounts;
  assert.deepEqual(mine.map((a) => [a.id, a.role]), [[boss.account_id, 'member']]);

  // Billing is hidden from a member: not in the user menu, and its URL says who may see it.
  await page.getByRole('button', { name: /User menu/ }).click();
  const menu = page.getByRole('menu');
  await menu.getByRole('menuitem', { name: 'Account settings' }).waitFor();
  assert.equal(await menu.getByRole('menuitem', { name: 'Billing' }).count(), 0);
  assert.equal(await menu.getByRole('menuitemradio').count(), 0, 'one account: no switcher');
  await page.keyboard.press('Escape');
  await page.goto(`${BASE}/dashboard/${boss.account_id}/billing/payment-details`);
  await page.getByRole('heading', { level: 1, name: 'Only the account owner can see billing' }).waitFor();
  assert.equal(await page.getByText('Whoops.. There was an error.').count(), 0, 'no error popup');
  await page.goto(`${BASE}/dashboard/${boss.account_id}/team`);
  await page.getByText('Only the account owner and admins can invite, remove or change members.').waitFor();
  assert.equal(await page.getByRole('button', { name: 'Invite a member' }).count(), 0);
  assert.equal(await page.getByRole('combobox').count(), 0);
  await assertAxeClean(page, 'the team page, read-only');

  // The owner sees the member, makes them an admin, then removes them (confirmed).
  await ownerPage.reload();
  await ownerPage.getByText('2 of 10 seats used').waitFor();
  // The team's part of the timeline, below the team (the billing pages are the owner's alone).
  await ownerPage.getByRole('heading', { name: 'Team activity' }).waitFor();
  await ownerPage.getByText(`${invitee} joined as a member`).waitFor();
  assert.deepEqual(await memberRows(ownerPage), [`Ada Lovelace(you) ${boss.email} Owner`, `Grace Hopper ${invitee} Member`]);
  await ownerPage.getByRole('combobox', { name: 'Role of Grace Hopper' }).selectOption('admin');
  await ownerPage.getByText('Grace Hopper is now Admin.').waitFor();
  const members = (await api('GET', `/v1/accounts/${boss.account_id}/members`, undefined, boss.token)).body.members;
  assert.equal(members.find((m) => m.email === invitee).role, 'admin');
  await ownerPage.getByRole('button', { name: 'Remove Grace Hopper' }).click();
  const confirm = ownerPage.getByRole('alertdialog', { name: 'Remove Grace Hopper?' });
  await confirm.getByRole('button', { name: 'Remove', exact: true }).click();
  await ownerPage.getByText('Grace Hopper was removed from the team.').waitFor();
  await ownerPage.getByText('1 of 10 seats used').waitFor();
  assert.equal(await ownerPage.getByTestId('member-row').count(), 1);

  // The removed member's next step has no access.
  await page.goto(`${BASE}/dashboard/${boss.account_id}/testimonials`);
  await page.getByRole('heading', { level: 1, name: 'You have no access to this account' }).waitFor();
  assert.equal((await api('GET', `/v1/accounts/${boss.account_id}`, undefined, memberToken)).status, 404);
  assertNoConsoleErrors(page);
  assertNoConsoleErrors(ownerPage);
  await page.close();
  await ownerPage.close();
});

test('an existing user: signs in from the accept page, accepts, and switches accounts with the user menu', { timeout: 300000 }, async () => {
  const boss = await theOwner();
  const existing = await theExisting();
  const sentAt = Date.now() - 1000;
  const invited = await api('POST', `/v1/accounts/${boss.account_id}/invitations`, { email: existing.email, role: 'admin' }, boss.token);
  assert.equal(invited.status, 201, JSON.stringify(invited.body));
  const link = await invitationLink(existing.email, sentAt);

  const page = await openPage(browser.context);
  await page.goto(link);
  await page.getByRole('heading', { level: 1, name: 'Join Babbage and Co' }).waitFor();
  await page.getByRole('link', { name: 'Sign in to accept' }).click();
  await page.waitForURL(/\/signin\?redirect=/);
  await page.getByLabel('E-mail').fill(existing.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  // Back on the invitation, signed in as the invited address.
  await page.waitForURL(/\/invitation\?token=/);
  await page.getByText(`Signed in as ${existing.email}`).waitFor();
  await assertAxeClean(page, 'the accept page, signed in');
  await page.getByRole('button', { name: 'Accept invitation' }).click();
  await page.waitForURL(`${BASE}/dashboard/${boss.account_id}/testimonials`);
  assert.equal(await page.evaluate(() => localStorage.getItem('account_id')), boss.account_id);

  // The switcher lists both accounts, this one checked; the keyboard goes to the other.
  const trigger = page.getByRole('button', { name: /User menu/ });
  await trigger.focus();
  await page.keyboard.press('Enter');
  const group = page.getByRole('group', { name: 'Switch account' });
  const items = group.getByRole('menuitemradio');
  await items.first().waitFor();
  assert.deepEqual(await items.allTextContents(), ['Analytical EnginesOwner · Trial', 'Babbage and CoAdmin · Trial']);
  assert.equal(await group.getByRole('menuitemradio', { name: /Babbage and Co/ }).getAttribute('aria-checked'), 'true');
  // Billing is the owner's: an admin's menu has none.
  assert.equal(await page.getByRole('menuitem', { name: 'Billing' }).count(), 0);
  const other = group.getByRole('menuitemradio', { name: /Analytical Engines/ });
  while (!(await other.evaluate((el) => el === document.activeElement))) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await page.waitForURL(`${BASE}/dashboard/${existing.account_id}/testimonials`);
  assert.equal(await page.evaluate(() => localStorage.getItem('account_id')), existing.account_id);
  // In their own account they own billing again.
  await page.getByRole('button', { name: /User menu/ }).click();
  await page.getByRole('menuitem', { name: 'Billing' }).waitFor();
  await page.getByRole('menuitemradio', { name: /Babbage and Co/ }).click();
  await page.waitForURL(`${BASE}/dashboard/${boss.account_id}/testimonials`);
  assertNoConsoleErrors(page);
  await page.close();
});

test('signed in as another address: the accept page says so, and Sign out and continue offers the sign-up', { timeout: 300000 }, async () => {
  const boss = await theOwner();
  const invitee = uniqueEmail('team-mismatch');
  const sentAt = Date.now() - 1000;
  assert.equal((await api('POST', `/v1/accounts/${boss.account_id}/invitations`, { email: invitee, role: 'member' }, boss.token)).status, 201);
  const link = await invitationLink(invitee, sentAt);
  // Signed in as someone else: the existing user (a member of the owner's account by now, or not).
  const someone = await theExisting();

  for (const width of [390, 1280]) {
    const page = await openPage(browser.context);
    await page.setViewportSize({ width, height: 850 });
    // A session of its own for each width: the last one signs out.
    const signedIn = await api('POST', '/v1/auth/signin', { email: someone.email, password: PASSWORD });
    assert.equal(signedIn.status, 201);
    await useSession(page, { ...signedIn.body, email: someone.email });
    await page.goto(link);
    const mismatch = page.getByTestId('invitation-mismatch');
    await mismatch.getByText(`This invitation is for ${invitee}. You are signed in as ${someone.email}.`).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Accept invitation' }).count(), 0);
    await assertAxeClean(page, `the mismatch screen at ${width}px`);
    // The api refuses it too.
    const token = new URL(link).searchParams.get('token');
    const accept = await api('POST', `/v1/invitations/${encodeURIComponent(token)}/accept`, undefined, signedIn.body.token);
    assert.equal(accept.status, 403, JSON.stringify(accept.body));
    assert.equal(accept.body.error.code, 'invitation_email_mismatch');
    if (width === 390) {
      // A phone: the team page does not scroll sideways.
      await useSession(page, boss);
      await page.goto(`${BASE}/dashboard/${boss.account_id}/team`);
      await page.getByRole('table', { name: 'Pending invitations' }).getByText(invitee).waitFor();
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scroll');
      await assertAxeClean(page, 'the team page at 390px');
      assertNoConsoleErrors(page);
      await page.close();
      continue;
    }
    await page.getByRole('button', { name: 'Sign out and continue' }).click();
    const email = page.getByLabel('E-mail');
    await email.waitFor();
    assert.equal(await email.inputValue(), invitee);
    assert.equal(await page.evaluate(() => localStorage.getItem('auth_token')), null);
    assertNoConsoleErrors(page);
    await page.close();
  }
});
