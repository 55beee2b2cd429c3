import { describe, expect, it } from 'vitest'
import { createQueryClient } from '@/lib/query-client'
import { queryKeys } from '@/lib/query-keys'
import { accountBody, calls, json, mockApi, withRole } from '@/test/mock-api'
import { Route } from '@/routes/dashboard/$accountId/team'
import { seatsCard } from '@/features/team/components/team-page'

// The team route's loader (issue 37 item 9): the owner's and admins' page
// draws with its invitations in the first render, not in a second render of
// the whole page once they arrive.
const TIMELINE = 'GET /v1/accounts/a/billing/timeline?limit=20&scope=team'

function api(role: 'owner' | 'admin' | 'member', invitations: () => Response, subscription: Record<string, unknown> = {}) {
  return mockApi({
    'GET /v1/accounts/a': () => json(200, withRole(accountBody(subscription), role)),
    'GET /v1/accounts/a/members': () => json(200, { members: [], seats: { used: 1, limit: 10 } }),
    'GET /v1/accounts/a/invitations': invitations,
    [TIMELINE]: () => json(200, { events: [], next_before: null }),
  })
}

async function load() {
  const queryClient = createQueryClient()
  const loader = Route.options.loader as unknown as (context: unknown) => Promise<void>
  await loader({ context: { queryClient }, params: { accountId: 'a' }, route: Route })
  return queryClient
}

const invitation = { id: 'i1', email: 'new@example.com', role: 'member', expires_at: '2026-03-08T10:00:00Z' }

describe('the team route’s loader', () => {
  it.each(['owner', 'admin'] as const)('for the %s: the invitations are read before the page draws', async (role) => {
    api(role, () => json(200, { invitations: [invitation] }))
    const queryClient = await load()
    expect(queryClient.getQueryData(queryKeys.invitations('a'))).toMatchObject({ invitations: [{ id: 'i1' }] })
  })

  it('for a member: no invitations (they are not theirs)', async () => {
    const fetch = api('member', () => json(403, { error: { status: 403, code: 'forbidden', message: 'forbidden' } }))
    await load()
    expect(calls(fetch)).not.toContain('GET /v1/accounts/a/invitations')
    expect(calls(fetch)).not.toContain(TIMELINE)
  })

  it('a failed read of the invitations does not fail the page, and is not retried here (the card asks again)', async () => {
    const fetch = api('owner', () => json(503, { error: { status: 503, code: 'unavailable', message: 'unavailable' } }))
    const queryClient = await load()
    expect(calls(fetch).filter((call) => call === 'GET /v1/accounts/a/invitations')).toHaveLength(1)
    expect(queryClient.getQueryState(queryKeys.invitations('a'))?.status).toBe('error')
  })

  // Round 8: the seats card's code is not in the route's chunk; the loader
  // fetches it with the data when the page shows the card, so the page draws
  // once, with it.
  it('for a trial: the seats card’s code is not fetched; for a Team plan’s owner it is, before the page draws', async () => {
    api('owner', () => json(200, { invitations: [] }))
    await load()
    expect(seatsCard.loaded()).toBeNull()
    api('owner', () => json(200, { invitations: [] }), { plan: 'TEAM', plan_renewal_at: '2027-03-12T10:00:00Z', start_next_period: true })
    await load()
    expect(seatsCard.loaded()).not.toBeNull()
  })
})
