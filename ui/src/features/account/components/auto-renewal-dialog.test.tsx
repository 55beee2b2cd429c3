import { Suspense } from 'react'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '@/test/render'
import { accountBody, calls, json, mockApi } from '@/test/mock-api'
import { AccountPlanTab } from './account-plan-tab'
import { AutoRenewalDialog } from './auto-renewal-dialog'

afterEach(() => vi.unstubAllGlobals())

describe('AutoRenewalDialog', () => {
  it('stopping warns that testimonials may be lost and calls DELETE subscription', async () => {
    const fetch = mockApi({ 'DELETE /v1/accounts/a/subscription': () => json(200, {}) })
    await renderWithProviders(<AutoRenewalDialog accountId="a" renewing plan="Pro" date="05/03/27" />)
    await userEvent.click(screen.getByRole('button', { name: 'Stop auto-renewal' }))
    const dialog = await screen.findByRole('alertdialog', { name: 'Stop auto-renewal?' })
    expect(within(dialog).getByText(/the testimonials you collected may be lost/)).toBeInTheDocument()
    expect(within(dialog).getByText('Your Pro plan will not renew and stops on 05/03/27.')).toBeInTheDocument()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes, stop auto-renewal' }))
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull())
    expect(calls(fetch)).toEqual(['DELETE /v1/accounts/a/subscription'])
  })

  it('restarting has no warning and calls POST subscription/restart', async () => {
    const fetch = mockApi({ 'POST /v1/accounts/a/subscription/restart': () => json(200, {}) })
    await renderWithProviders(<AutoRenewalDialog accountId="a" renewing={false} plan="Pro" date="05/03/27" />)
    await userEvent.click(screen.getByRole('button', { name: 'Restart auto-renewal' }))
    const dialog = await screen.findByRole('alertdialog', { name: 'Restart auto-renewal?' })
    expect(within(dialog).queryByTestId('renewal-warning')).toBeNull()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes, restart auto-renewal' }))
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull())
    expect(calls(fetch)).toEqual(['POST /v1/accounts/a/subscription/restart'])
  })

  it('cancel calls nothing', async () => {
    const fetch = mockApi({})
    await renderWithProviders(<AutoRenewalDialog accountId="a" renewing plan="Pro" date="05/03/27" />)
    await userEvent.click(screen.getByRole('button', { name: 'Stop auto-renewal' }))
    await userEvent.click(await screen.findByRole('button', { name: 'Keep auto-renewal' }))
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull())
    expect(fetch).not.toHaveBeenCalled()
  })
})

describe('AccountPlanTab', () => {
  it('after stopping, the account is re-fetched and shows the stop date and a restart button', async () => {
    let renewing = true
    const fetch = mockApi({
      'GET /v1/accounts/a': () =>
        json(200, accountBody({ plan: 'PRO', plan_renewal_at: '2027-03-05T12:00:00Z', start_next_period: renewing })),
      'DELETE /v1/accounts/a/subscription': () => {
        renewing = false
        return json(200, {})
      },
    })
    await renderWithProviders(
      <Suspense fallback={null}>
        <AccountPlanTab accountId="a" />
      </Suspense>,
    )
    expect(await screen.findByText('Your plan renews automatically on 05/03/27.')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Upgrade your plan' })).toHaveAttribute('href', '/dashboard/a/plans?for=plan_upgrade')
    await userEvent.click(screen.getByRole('button', { name: 'Stop auto-renewal' }))
    await userEvent.click(await screen.findByRole('button', { name: 'Yes, stop auto-renewal' }))
    expect(await screen.findByText('Your plan stops on 05/03/27.')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Restart auto-renewal' })).toBeInTheDocument()
    expect(calls(fetch).filter((c) => c === 'GET /v1/accounts/a')).toHaveLength(2)
  })

  it('a trial shows its end date and links to plans?for=trial_expired', async () => {
    // A local time: the trial's last day is said with its time, the customer's clock (issue 37).
    mockApi({ 'GET /v1/accounts/a': () => json(200, accountBody({ trial_expires_at: new Date(2026, 2, 5, 12, 0).toISOString() })) })
    await renderWithProviders(
      <Suspense fallback={null}>
        <AccountPlanTab accountId="a" />
      </Suspense>,
    )
    expect(await screen.findByText('Your trial ends on 05/03/26, 12:00.')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Ready to start your plan?' })).toHaveAttribute(
      'href',
      '/dashboard/a/plans?for=trial_expired',
    )
    expect(screen.queryByRole('button', { name: /auto-renewal/ })).toBeNull()
  })
})
