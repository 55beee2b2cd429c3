// Across features (the plans page, the plan tab, the payment details), so
// it lives with the test helpers: shared components may import no feature.
import { Suspense } from 'react'
import { act, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { ErrorPopup } from '@/components/error-popup'
import { AccountPlanTab } from '@/features/account/components/account-plan-tab'
import { InvoicesTab } from '@/features/billing/components/invoices-tab'
import { PaymentDetailsTab } from '@/features/billing/components/payment-details-tab'
import { PlansPage } from '@/features/plans/components/plans-page'
import { ApiError } from '@/lib/api-client'
import { dismissError, reportError } from '@/lib/error-store'
import { renderWithProviders } from '@/test/render'
import { accountBody, json, mockApi, pricingBody, withRole } from '@/test/mock-api'

// Issue 37 item 1: while the account's deletion is scheduled, what would buy
// or commit money is disabled with the reason beside it (aria-describedby),
// and a refusal that still comes names the deletion.

afterEach(() => {
  act(() => dismissError())
})

// A local time: the browser's clock is the customer's (as format.test.ts).
const DELETION = '2026-12-27T10:00:00'
const REASON = 'This account is being deleted on 27 December 2026 at 10:00 — cancel the deletion to change the plan.'

function deleting(subscription: Record<string, unknown>) {
  const body = withRole(accountBody(subscription), 'owner')
  return { ...body, account: { ...body.account, deletion_at: DELETION, deletion_stopped_renewal: true } }
}

/** The element's accessible description: the texts its aria-describedby names. */
function description(el: HTMLElement): string {
  return (el.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ')
}

describe('during a scheduled account deletion', () => {
  it('the plans page disables every buy and upgrade button with the reason', async () => {
    mockApi({
      'GET /v1/accounts/a': () => json(200, deleting({ plan: 'STARTER', plan_renewal_at: '2027-03-01T12:00:00Z' })),
      'GET /v1/pricing/a': () => json(200, pricingBody),
      'GET /v1/accounts/a/members': () => json(200, { members: [], invitations: [], seats: { used: 1, limit: 1 } }),
    })
    await renderWithProviders(
      <Suspense fallback={null}>
        <PlansPage accountId="a" />
      </Suspense>,
      '/dashboard/a/plans',
    )
    await screen.findByRole('heading', { level: 1 })
    for (const [plan, name] of [
      ['Pro', 'Upgrade to Pro'],
      ['Team', 'Upgrade to Team'],
    ]) {
      const button = within(screen.getByRole('region', { name: plan })).getByRole('button', { name })
      expect(button).toBeDisabled()
      expect(description(button)).toContain(REASON)
    }
    expect(screen.getByText(REASON)).toBeVisible()
  })

  it('the plans page during a trial disables the buy buttons too', async () => {
    mockApi({
      'GET /v1/accounts/a': () => json(200, deleting({})),
      'GET /v1/pricing/a': () => json(200, pricingBody),
      'GET /v1/accounts/a/members': () => json(200, { members: [], invitations: [], seats: { used: 1, limit: 1 } }),
    })
    await renderWithProviders(
      <Suspense fallback={null}>
        <PlansPage accountId="a" />
      </Suspense>,
      '/dashboard/a/plans',
    )
    await screen.findByRole('heading', { level: 1 })
    const button = within(screen.getByRole('region', { name: 'Pro' })).getByRole('button', { name: 'Start with Pro' })
    expect(button).toBeDisabled()
    expect(description(button)).toContain(REASON)
  })

  it('the plan tab disables the upgrade and the auto-renewal restart with the reason', async () => {
    mockApi({
      'GET /v1/accounts/a': () =>
        json(200, deleting({ plan: 'PRO', plan_renewal_at: '2027-03-01T12:00:00Z', start_next_period: false })),
    })
    await renderWithProviders(
      <Suspense fallback={null}>
        <AccountPlanTab accountId="a" />
      </Suspense>,
      '/dashboard/a/account-settings/plan',
    )
    await screen.findByRole('heading', { name: 'Your plan' })
    expect(screen.queryByRole('link', { name: 'Upgrade your plan' })).toBeNull()
    for (const name of ['Upgrade your plan', 'Restart auto-renewal']) {
      const button = screen.getByRole('button', { name })
      expect(button).toBeDisabled()
      expect(description(button)).toContain(REASON)
    }
  })

  it('the payment methods card disables adding one with the reason', async () => {
    mockApi({
      'GET /v1/accounts/a': () => json(200, deleting({ plan: 'PRO', plan_renewal_at: '2027-03-01T12:00:00Z' })),
      'GET /v1/accounts/a/billing': () =>
        json(200, { invoices: [], mandates: [], mandate_count: 0, account_billing_address: null }),
    })
    await renderWithProviders(
      <Suspense fallback={null}>
        <PaymentDetailsTab accountId="a" />
      </Suspense>,
    )
    const add = await screen.findByRole('button', { name: 'Add payment method' })
    expect(add).toBeDisabled()
    expect(description(add)).toContain('This account is being deleted on 27 December 2026 at 10:00 — cancel the deletion to add a payment method.')
  })

  it('the invoices tab disables paying a due invoice with the reason', async () => {
    const due = { id: 'inv-due', invoice_url: 'KUD-2026-000125', created_at: '2026-03-05T10:00:00Z',
      description: 'Renewal STARTER', amount: 217.8, currency: 'EUR', status: 'DUE_PAYMENT' }
    mockApi({
      'GET /v1/accounts/a': () => json(200, deleting({ plan: 'PRO', plan_renewal_at: '2027-03-01T12:00:00Z' })),
      'GET /v1/accounts/a/billing': () =>
        json(200, { invoices: [due], mandates: [], mandate_count: 0, account_billing_address: null }),
    })
    await renderWithProviders(
      <Suspense fallback={null}>
        <InvoicesTab accountId="a" />
      </Suspense>,
    )
    const pay = await screen.findByRole('button', { name: 'Pay' })
    await waitFor(() => expect(pay).toBeDisabled())
    expect(description(pay)).toContain('This account is being deleted on 27 December 2026 at 10:00 — cancel the deletion to pay an invoice.')
  })

  it('a refusal that still comes names the deletion, not an edit conflict', async () => {
    await renderWithProviders(<ErrorPopup />)
    act(() => reportError(new ApiError(409, 'account_being_deleted', 'This account is being deleted on 27 Dec 2026')))
    const popup = screen.getByRole('alert')
    expect(popup).toHaveTextContent('This account is being deleted: cancel the deletion to change the plan.')
    expect(popup).not.toHaveTextContent('Someone else changed this')
  })
})
