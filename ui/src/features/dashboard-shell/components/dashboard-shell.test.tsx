import { Suspense } from 'react'
import { screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '@/test/render'
import { accountBody, dunningSubscription, json, mockApi } from '@/test/mock-api'
import { switchLanguage } from '@/test/i18n'
import { DashboardShell } from './dashboard-shell'

let restoreLanguage: (() => Promise<void>) | undefined
afterEach(async () => {
  await restoreLanguage?.()
  restoreLanguage = undefined
})

function renderShell(path: string, subscription: Record<string, unknown>, language = 'en') {
  const body = accountBody(subscription)
  mockApi({ 'GET /v1/accounts/a': () => json(200, { ...body, user: { ...body.user, preferred_language: language } }) })
  return renderWithProviders(
    <Suspense fallback={null}>
      <DashboardShell accountId="a">
        <h1>Page content</h1>
      </DashboardShell>
    </Suspense>,
    path,
  )
}

describe('DashboardShell: the payment retry banner (dunning)', () => {
  it.each(['/dashboard/a/testimonials', '/dashboard/a/billing/invoices', '/dashboard/a/account-settings/plan', '/dashboard/a/plans'])(
    'on %s: the failed amount, the next attempt and a link to payment details, above the page',
    async (path) => {
      await renderShell(path, dunningSubscription)
      const banner = await screen.findByRole('alert')
      expect(banner).toHaveTextContent("Your payment of €217.80 failed. We'll try again on 5 March 2027.")
      const link = within(banner).getByRole('link', { name: 'Update your payment method' })
      expect(link).toHaveAttribute('href', '/dashboard/a/billing/payment-details')
      // Above the page content, in the flow (it covers nothing).
      const heading = screen.getByRole('heading', { name: 'Page content' })
      expect(banner.compareDocumentPosition(heading) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
      expect(banner).not.toHaveFocus()
    },
  )

  it('in nl: the amount and the date as Dutch writes them', async () => {
    restoreLanguage = await switchLanguage('nl')
    await renderShell('/dashboard/a/testimonials', dunningSubscription, 'nl')
    const banner = await screen.findByRole('alert')
    expect(banner).toHaveTextContent('Je betaling van € 217,80 is mislukt. We proberen het opnieuw op 5 maart 2027.')
    expect(within(banner).getByRole('link', { name: 'Werk je betaalmethode bij' })).toHaveAttribute(
      'href',
      '/dashboard/a/billing/payment-details',
    )
  })

  it('without the amount (not known yet) still says when the next attempt is', async () => {
    await renderShell('/dashboard/a/testimonials', { ...dunningSubscription, failed_payment: null })
    expect(await screen.findByRole('alert')).toHaveTextContent("Your renewal payment failed. We'll try again on 5 March 2027.")
  })

  it.each([
    ['no retry pending', { plan: 'PRO', plan_renewal_at: '2027-03-01T12:00:00Z', start_next_period: true }],
    ['the failed payment without a next attempt (dunning ending)', { ...dunningSubscription, payment_retry_at: null }],
  ])('not shown with %s', async (_name, subscription) => {
    await renderShell('/dashboard/a/testimonials', subscription)
    await screen.findByRole('heading', { name: 'Page content' })
    expect(screen.queryByRole('alert')).toBeNull()
    expect(screen.queryByText(/failed/)).toBeNull()
  })

  it('stays under the processing overlay, outside the part it makes inert', async () => {
    await renderShell('/dashboard/a/testimonials', { ...dunningSubscription, show_status: 'processing' })
    const overlay = await screen.findByTestId('overlay-processing')
    const banner = screen.getByText(/Your payment of €217.80 failed/).closest('[data-testid="payment-retry-banner"]')
    expect(banner).not.toBeNull()
    expect(overlay.contains(banner)).toBe(false)
    expect(banner?.closest('[inert]')).toBeNull()
  })
})

/** A window `width` px wide: matchMedia answers Tailwind's min-width breakpoints (rem at 16 px). */
function windowOf(width: number) {
  const matches = (query: string) => {
    const rem = /\(width >= ([\d.]+)rem\)/.exec(query)
    if (!rem) throw new Error(`unexpected media query ${query}`)
    return width >= Number(rem[1]) * 16
  }
  vi.stubGlobal('matchMedia', (query: string) => ({
    media: query,
    matches: matches(query),
    addEventListener: () => {},
    removeEventListener: () => {},
  }))
}

describe('DashboardShell: each width draws only the half it shows (issue 37 item 9)', () => {
  it.each([
    [390, { sidebar: false, notice: 'main' }],
    [800, { sidebar: true, notice: 'main' }],
    [1280, { sidebar: true, notice: 'header' }],
  ])('at %i px: the sidebar or the phone menu, and the trial notice once', async (width, { sidebar, notice }) => {
    windowOf(width)
    await renderShell('/dashboard/a/testimonials', { plan: 'TRIAL', show_status: 'active', trials_left: 3 })
    await screen.findByTestId('plan-badge')
    const nav = screen.queryByRole('navigation', { name: 'Main navigation' })
    const menu = screen.queryByRole('button', { name: 'Open the navigation menu' })
    if (sidebar) {
      expect(within(nav as HTMLElement).getByRole('link', { name: /Team/ })).toHaveAttribute('href', '/dashboard/a/team')
      expect(menu).toBeNull()
    } else {
      expect(nav).toBeNull()
      expect(menu).toBeInTheDocument()
    }
    const banners = screen.getAllByTestId('trial-banner')
    expect(banners).toHaveLength(1)
    expect(banners[0].closest(notice)).not.toBeNull()
  })
})
