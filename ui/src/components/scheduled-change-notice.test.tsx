import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { subscriptionSchema } from '@/lib/api/get-account'
import { renderWithProviders } from '@/test/render'
import { accountBody, calls, json, mockApi } from '@/test/mock-api'
import * as v from 'valibot'
import { ScheduledChangeNotice } from './scheduled-change-notice'

afterEach(() => vi.unstubAllGlobals())

const team = (extra: Record<string, unknown>) =>
  v.parse(subscriptionSchema, accountBody({ plan: 'TEAM', plan_renewal_at: '2027-03-12T10:00:00Z', start_next_period: true, ...extra }).account.subscription)

describe('ScheduledChangeNotice (issue 38)', () => {
  it('says nothing when no change is scheduled', async () => {
    mockApi({})
    await renderWithProviders(<ScheduledChangeNotice accountId="a" subscription={team({})} canCancel />)
    expect(screen.queryByTestId('scheduled-change')).toBeNull()
  })

  it('names the lower plan and its date, and cancels it after a confirmation', async () => {
    const fetch = mockApi({
      'DELETE /v1/accounts/a/subscription/scheduled-change': () => json(200, { scheduled_plan: null, scheduled_at: null }),
    })
    const sub = team({ scheduled_plan: 'PRO', scheduled_at: '2027-03-12T10:00:00Z' })
    await renderWithProviders(<ScheduledChangeNotice accountId="a" subscription={sub} canCancel />)
    expect(screen.getByText('Pro from 12 March 2027')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Cancel the scheduled change' }))
    const dialog = await screen.findByRole('alertdialog', { name: 'Cancel the scheduled change?' })
    expect(within(dialog).getByText('Your plan renews on 12 March 2027 as it is now (Team).')).toBeInTheDocument()
    expect(calls(fetch)).toEqual([])
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel the change' }))
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull())
    expect(calls(fetch)).toContain('DELETE /v1/accounts/a/subscription/scheduled-change')
  })

  it('names the seats kept, and offers no cancel to a non-owner', async () => {
    mockApi({})
    const sub = team({ extra_seats: 3, scheduled_extra_seats: 2, scheduled_at: '2027-03-12T10:00:00Z' })
    await renderWithProviders(<ScheduledChangeNotice accountId="a" subscription={sub} canCancel={false} />)
    expect(screen.getByText('12 seats from 12 March 2027')).toBeInTheDocument()
    expect(screen.queryByRole('button')).toBeNull()
  })
})
