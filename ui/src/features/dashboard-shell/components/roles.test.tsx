import { Suspense } from 'react'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { renderWithProviders } from '@/test/render'
import { accountBody, dunningSubscription, json, mockApi, withRole } from '@/test/mock-api'
import { BlockingOverlay } from './blocking-overlay'
import { DashboardShell } from './dashboard-shell'
import { itemsFor, USER_MENU_ITEMS } from './nav-items'

// Issue 26: the shell hides what a role may not do (billing and buying plans are the owner's).

function renderShell(role: 'owner' | 'admin' | 'member', subscription: Record<string, unknown> = {}) {
  mockApi({
    'GET /v1/accounts/a': () => json(200, withRole(accountBody(subscription), role)),
    'GET /v1/accounts': () => json(200, { accounts: [] }),
  })
  return renderWithProviders(
    <Suspense fallback={null}>
      <DashboardShell accountId="a">
        <h1>Page content</h1>
      </DashboardShell>
    </Suspense>,
    '/dashboard/a/testimonials',
  )
}

describe('navigation by role', () => {
  it('billing is in the owner’s user menu only', () => {
    expect(itemsFor(USER_MENU_ITEMS, 'owner').map((i) => i.key)).toContain('billing')
    for (const role of ['admin', 'member'] as const) {
      expect(itemsFor(USER_MENU_ITEMS, role).map((i) => i.key)).toEqual(['account_settings', 'preferences', 'request_feature'])
    }
  })

  it.each([
    ['member', false],
    ['owner', true],
  ] as const)('the user menu of a %s shows Billing: %s', async (role, shown) => {
    await renderShell(role)
    await userEvent.click(await screen.findByRole('button', { name: /User menu/ }))
    const menu = await screen.findByRole('menu')
    expect(within(menu).getByRole('menuitem', { name: 'Account settings' })).toBeInTheDocument()
    expect(within(menu).queryByRole('menuitem', { name: 'Billing' }) !== null).toBe(shown)
  })
})

describe('subscription notices by role', () => {
  it('a member reads the trial status without the upgrade link', async () => {
    await renderShell('member')
    const banners = await screen.findAllByTestId('trial-banner')
    for (const banner of banners) {
      expect(banner).toHaveTextContent('3 free recordings left in your trial.')
      expect(within(banner).queryByRole('link')).toBeNull()
    }
  })

  it('the payment retry banner is the owner’s', async () => {
    await renderShell('admin', dunningSubscription)
    await screen.findByRole('heading', { name: 'Page content' })
    expect(screen.queryByTestId('payment-retry-banner')).toBeNull()
  })

  it('an expired trial tells a member to ask the owner, with no link to buy', async () => {
    await renderWithProviders(<BlockingOverlay kind="trial_expired" accountId="a" sidebarHidden={false} owner={false} />)
    const overlay = await screen.findByTestId('overlay-trial_expired')
    expect(within(overlay).getByTestId('overlay-ask-owner')).toHaveTextContent('Only the account owner can choose a plan.')
    expect(within(overlay).queryByRole('link')).toBeNull()
  })
})
