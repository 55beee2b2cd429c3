import { Suspense } from 'react'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import { renderWithProviders } from '@/test/render'
import { accountBody, calls, dunningSubscription, json, mockApi, withRole } from '@/test/mock-api'
import { switchLanguage } from '@/test/i18n'
import { AccountPlanTab } from './account-plan-tab'

let restoreLanguage: (() => Promise<void>) | undefined
afterEach(async () => {
  await restoreLanguage?.()
  restoreLanguage = undefined
})

async function renderTab(subscription: Record<string, unknown>, title = 'Your plan', role: 'owner' | 'admin' | 'member' = 'owner') {
  const fetch = mockApi({
    'GET /v1/accounts/a': () => json(200, withRole(accountBody(subscription), role)),
    'DELETE /v1/accounts/a/subscription': () => json(200, {}),
  })
  await renderWithProviders(
    <Suspense fallback={null}>
      <AccountPlanTab accountId="a" />
    </Suspense>,
    '/dashboard/a/account-settings/plan',
  )
  await screen.findByRole('heading', { name: title })
  return fetch
}

describe('AccountPlanTab during dunning (a failed renewal being retried)', () => {
  it('says the renewal was due, the failed amount, the next attempt, and links to payment details', async () => {
    await renderTab(dunningSubscription)
    expect(screen.getByTestId('plan-period')).toHaveTextContent('Your plan was due to renew on 01/03/27.')
    const retry = screen.getByTestId('plan-payment-retry')
    expect(retry).toHaveTextContent("Your payment of €217.80 failed. We'll try again on 5 March 2027.")
    expect(within(retry).getByRole('link', { name: 'Update your payment method' })).toHaveAttribute(
      'href',
      '/dashboard/a/billing/payment-details',
    )
  })

  it('offers no upgrade (the api refuses it with 409 while the renewal is outstanding) and says why', async () => {
    await renderTab(dunningSubscription)
    expect(screen.queryByRole('link', { name: 'Upgrade your plan' })).toBeNull()
    expect(screen.getByText('You can upgrade your plan again once your renewal payment has gone through.')).toBeInTheDocument()
  })

  it('stopping auto-renewal says the plan ends now (the api ends an unpaid renewal at once), not on the past date', async () => {
    const fetch = await renderTab(dunningSubscription)
    await userEvent.click(screen.getByRole('button', { name: 'Stop auto-renewal' }))
    const dialog = await screen.findByRole('alertdialog', { name: 'Stop auto-renewal?' })
    expect(within(dialog).getByText('Your renewal payment will not be retried and your Pro plan ends now.')).toBeInTheDocument()
    expect(within(dialog).getByTestId('renewal-warning')).toHaveTextContent(
      'Your recording spaces go offline at once and the testimonials you collected may be lost.',
    )
    expect(within(dialog).queryByText(/01\/03\/27/)).toBeNull()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes, stop auto-renewal' }))
    await waitFor(() => expect(calls(fetch)).toContain('DELETE /v1/accounts/a/subscription'))
  })

  it('in nl', async () => {
    restoreLanguage = await switchLanguage('nl')
    await renderTab(dunningSubscription, 'Je abonnement')
    const retry = screen.getByTestId('plan-payment-retry')
    expect(retry).toHaveTextContent('Je betaling van € 217,80 is mislukt. We proberen het opnieuw op 5 maart 2027.')
    expect(within(retry).getByRole('link', { name: 'Werk je betaalmethode bij' })).toHaveAttribute(
      'href',
      '/dashboard/a/billing/payment-details',
    )
  })
})

describe('AccountPlanTab without dunning', () => {
  it('shows the renewal date and the upgrade link, and no payment retry', async () => {
    await renderTab({ plan: 'PRO', plan_renewal_at: '2027-03-05T12:00:00Z', start_next_period: true })
    expect(screen.getByTestId('plan-period')).toHaveTextContent('Your plan renews automatically on 05/03/27.')
    expect(screen.getByRole('link', { name: 'Upgrade your plan' })).toHaveAttribute('href', '/dashboard/a/plans?for=plan_upgrade')
    expect(screen.queryByTestId('plan-payment-retry')).toBeNull()
  })

  it('a failed payment without a next attempt (dunning ending) shows no retry either', async () => {
    await renderTab({ ...dunningSubscription, payment_retry_at: null })
    expect(screen.queryByTestId('plan-payment-retry')).toBeNull()
    expect(screen.getByRole('link', { name: 'Upgrade your plan' })).toBeInTheDocument()
  })
})

describe('AccountPlanTab by role (issue 26)', () => {
  it('a member reads the plan status, is told to ask the owner, and edits neither name nor logo', async () => {
    await renderTab(dunningSubscription, 'Your plan', 'member')
    expect(screen.getByTestId('plan-period')).toBeInTheDocument()
    expect(screen.getByTestId('plan-ask-owner')).toHaveTextContent('Ask the account owner to change the plan.')
    expect(screen.queryByTestId('plan-payment-retry')).toBeNull()
    expect(screen.queryByRole('link', { name: /upgrade/i })).toBeNull()
    expect(screen.queryByRole('button', { name: /auto-renewal/i })).toBeNull()
    expect(screen.getByTestId('account-name')).toHaveTextContent('Acme')
    expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull()
    expect(screen.queryByRole('heading', { name: 'Logo' })).toBeNull()
  })

  it('an admin edits the name and the logo, not the plan', async () => {
    await renderTab({}, 'Your plan', 'admin')
    expect(screen.getByTestId('plan-ask-owner')).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: /plan/i })).toBeNull()
    expect(screen.getByRole('button', { name: 'Edit' })).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'Logo' })).toBeInTheDocument()
  })
})
