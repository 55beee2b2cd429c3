import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import * as v from 'valibot'
import { subscriptionSchema } from '@/lib/api/get-account'
import { renderWithProviders } from '@/test/render'
import { accountBody, calls, json, mockApi } from '@/test/mock-api'
import { SeatsCard } from './seats-card'
import { teamSeats } from './team-rules'

afterEach(() => vi.unstubAllGlobals())

const team = v.parse(
  subscriptionSchema,
  accountBody({ plan: 'TEAM', plan_renewal_at: '2027-03-12T10:00:00Z', start_next_period: true, extra_seats: 3 }).account.subscription,
)

async function setSeats(n: string) {
  const input = screen.getByLabelText('Seats in all')
  await userEvent.clear(input)
  await userEvent.type(input, n)
}

describe('SeatsCard (issue 38)', () => {
  it('shows the seats, and schedules fewer for the renewal', async () => {
    let body: unknown
    const fetch = mockApi({
      'PATCH /v1/accounts/a/subscription/seats': async (init) => {
        body = JSON.parse(String(init?.body))
        return json(200, { scheduled_seats: 12, scheduled_at: '2027-03-12T10:00:00Z' })
      },
    })
    await renderWithProviders(<SeatsCard accountId="a" subscription={team} seats={{ used: 11, limit: 13 }} />)
    expect(screen.getByText('Your Team plan has 13 seats; 11 are used (members and pending invitations).')).toBeInTheDocument()
    await setSeats('12')
    expect(screen.getByText('Fewer seats take effect at the renewal, on 12 March 2027; nothing is refunded.')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Change the seats' }))
    await waitFor(() => expect(calls(fetch)).toContain('PATCH /v1/accounts/a/subscription/seats'))
    expect(body).toEqual({ seats: 12 })
  })

  it('refuses fewer than the plan includes before asking, and says a team too large for the count', async () => {
    const fetch = mockApi({
      'PATCH /v1/accounts/a/subscription/seats': () =>
        json(409, { error: { status: 409, code: 'seat_limit', message: 'remove 1 first' } }),
    })
    await renderWithProviders(<SeatsCard accountId="a" subscription={team} seats={{ used: 11, limit: 13 }} />)
    await setSeats('9')
    await userEvent.click(screen.getByRole('button', { name: 'Change the seats' }))
    expect(await screen.findByText('*the Team plan has at least 10 seats')).toBeInTheDocument()
    expect(calls(fetch)).toEqual([])
    await setSeats('10')
    await userEvent.click(screen.getByRole('button', { name: 'Change the seats' }))
    expect(await screen.findByText('Your team uses more seats than that: remove members or revoke invitations first.')).toBeInTheDocument()
  })

  it('more seats say they are paid now', async () => {
    mockApi({})
    await renderWithProviders(<SeatsCard accountId="a" subscription={team} seats={{ used: 11, limit: 13 }} />)
    await setSeats('15')
    expect(screen.getByText('2 more seats: you pay for them now, for the rest of the period.')).toBeInTheDocument()
  })

  it('only an active Team plan without a lower plan scheduled has seats to change', () => {
    expect(teamSeats(team)).toBe(true)
    expect(teamSeats({ ...team, scheduled_plan: 'PRO' })).toBe(false)
    expect(teamSeats({ ...team, plan: 'PRO' })).toBe(false)
  })
})
