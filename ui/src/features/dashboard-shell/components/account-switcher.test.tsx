import { Suspense } from 'react'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { getStoredAccountId } from '@/lib/session'
import { renderWithProviders } from '@/test/render'
import { accountBody, json, mockApi } from '@/test/mock-api'
import { DashboardShell } from './dashboard-shell'

const acme = { id: 'a', name: 'Acme', role: 'owner', img_url: '', logo_url: '', plan: 'TRIAL', last_used: true }
const globex = { id: 'b', name: 'Globex', role: 'member', img_url: '', logo_url: '', plan: 'TEAM', last_used: false }

function renderShell(accounts: unknown[]) {
  mockApi({
    'GET /v1/accounts/a': () => json(200, accountBody()),
    'GET /v1/accounts': () => json(200, { accounts }),
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

describe('AccountSwitcher (user menu)', () => {
  it('lists the accounts with role and plan, the open one checked; the keyboard switches to another', async () => {
    const { router } = await renderShell([acme, globex])
    const user = userEvent.setup()
    const trigger = await screen.findByRole('button', { name: /User menu/ })
    trigger.focus()
    await user.keyboard('{Enter}')
    // The menu's code and the accounts load on demand: allow a busy machine its time.
    const group = await screen.findByRole('group', { name: 'Switch account' }, { timeout: 5000 })
    const items = await within(group).findAllByRole('menuitemradio')
    expect(items.map((i) => i.textContent)).toEqual(['AcmeOwner · Trial', 'GlobexMember · Team'])
    expect(items[0]).toHaveAttribute('aria-checked', 'true')
    expect(items[1]).toHaveAttribute('aria-checked', 'false')
    items[1].focus()
    await user.keyboard('{Enter}')
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/b/testimonials'))
    expect(getStoredAccountId()).toBe('b')
  })

  it('is not shown with one account', async () => {
    await renderShell([acme])
    await userEvent.click(await screen.findByRole('button', { name: /User menu/ }))
    const menu = await screen.findByRole('menu')
    expect(within(menu).getByRole('menuitem', { name: 'Account settings' })).toBeInTheDocument()
    expect(within(menu).queryByRole('menuitemradio')).toBeNull()
    expect(within(menu).queryByText('Switch account')).toBeNull()
  })
})
