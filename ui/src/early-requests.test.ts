import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import * as v from 'valibot'
import { QueryClient } from '@tanstack/react-query'
import { EARLY_MAX_AGE_MS, earlyRequests, startEarlyRequests, takeEarlyResponse } from '@/lib/early-requests'
import { apiRequest } from '@/lib/api-client'
import { saveSession } from '@/lib/session'
import { accountQueryOptions } from '@/lib/api/get-account'
import { membersQueryOptions } from '@/lib/api/get-members'
import { billingQueryOptions } from '@/features/billing/api/get-billing'
import { billingTimelineQueryOptions } from '@/features/billing/api/get-billing-timeline'
import { invitationsQueryOptions } from '@/features/team/api/invitations'

const ACCOUNT = '0b9d6a4e-3f43-4a5e-9c1e-2f6d8f9e0a11'
const TOKEN = 'token-a'

function signIn(expiry = new Date(Date.now() + 3_600_000).toISOString(), token = TOKEN) {
  saveSession({ token, token_expiry: expiry, account_id: ACCOUNT })
}

/** The paths a query's fetch asks for (it answers 500, so the query fails fast). */
async function pathsOf(run: () => Promise<unknown>): Promise<string[]> {
  const fetch = vi.fn(async () => new Response('{}', { status: 500 }))
  vi.stubGlobal('fetch', fetch)
  await run().catch(() => {})
  vi.unstubAllGlobals()
  return fetch.mock.calls.map((call) => String((call as unknown[])[0]))
}

beforeEach(() => {
  localStorage.clear()
  window.history.replaceState(null, '', '/')
  startEarlyRequests() // no session: forgets what an earlier test started
})
afterEach(() => {
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

describe('earlyRequests', () => {
  it('asks for exactly what the first screen’s loaders ask for', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    const account = await pathsOf(() => client.fetchQuery(accountQueryOptions(ACCOUNT)))
    const members = await pathsOf(() => client.fetchQuery(membersQueryOptions(ACCOUNT)))
    const invitations = await pathsOf(() => client.fetchQuery(invitationsQueryOptions(ACCOUNT)))
    const timeline = await pathsOf(() => client.fetchInfiniteQuery(billingTimelineQueryOptions(ACCOUNT, 'team')))
    const billing = await pathsOf(() => client.fetchQuery(billingQueryOptions(ACCOUNT)))

    expect(earlyRequests(`/dashboard/${ACCOUNT}`)).toEqual(account)
    expect(earlyRequests(`/dashboard/${ACCOUNT}/testimonials/`)).toEqual(account)
    expect(earlyRequests(`/dashboard/${ACCOUNT}/team`)).toEqual([...account, ...members, ...invitations, ...timeline])
    expect(earlyRequests(`/dashboard/${ACCOUNT}/billing`)).toEqual([...account, ...billing])
    expect(earlyRequests(`/dashboard/${ACCOUNT}/billing/payment-details`)).toEqual([...account, ...billing])
  })

  it('reads nothing for a page outside an account', () => {
    expect(earlyRequests('/signin')).toEqual([])
    expect(earlyRequests('/dashboard/not-an-account/team')).toEqual([])
    expect(earlyRequests('/')).toEqual([])
  })
})

describe('startEarlyRequests', () => {
  it('sends the first screen’s reads with the bearer of a valid session', () => {
    signIn()
    window.history.replaceState(null, '', `/dashboard/${ACCOUNT}/billing`)
    const fetch = vi.fn(async () => new Response('{}'))
    vi.stubGlobal('fetch', fetch)
    startEarlyRequests()
    expect(fetch.mock.calls.map((call) => (call as unknown[])[0])).toEqual([`/v1/accounts/${ACCOUNT}`, `/v1/accounts/${ACCOUNT}/billing`])
    expect((fetch.mock.calls[0] as unknown[])[1]).toMatchObject({ headers: { Authorization: `Bearer ${TOKEN}` } })
  })

  it('sends nothing without a session, or with an expired one', () => {
    window.history.replaceState(null, '', `/dashboard/${ACCOUNT}`)
    const fetch = vi.fn(async () => new Response('{}'))
    vi.stubGlobal('fetch', fetch)
    startEarlyRequests()
    signIn(new Date(Date.now() - 1000).toISOString())
    startEarlyRequests()
    expect(fetch).not.toHaveBeenCalled()
  })
})

describe('apiRequest with early reads', () => {
  it('takes the early answer once instead of asking again', async () => {
    signIn()
    window.history.replaceState(null, '', `/dashboard/${ACCOUNT}`)
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ early: true }))))
    startEarlyRequests()
    const later = vi.fn(async () => new Response(JSON.stringify({ early: false })))
    vi.stubGlobal('fetch', later)
    const schema = v.object({ early: v.boolean() })

    expect(await apiRequest(`/v1/accounts/${ACCOUNT}`, { auth: true, schema })).toEqual({ early: true })
    expect(later).not.toHaveBeenCalled()
    // Taken: the next read goes to the api.
    expect(await apiRequest(`/v1/accounts/${ACCOUNT}`, { auth: true, schema })).toEqual({ early: false })
    expect(later).toHaveBeenCalledTimes(1)
  })

  it('asks again when the early read failed, or went with another session', async () => {
    signIn()
    window.history.replaceState(null, '', `/dashboard/${ACCOUNT}/team`)
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('offline'))))
    startEarlyRequests()
    const later = vi.fn(async () => new Response('{}'))
    vi.stubGlobal('fetch', later)
    await apiRequest(`/v1/accounts/${ACCOUNT}`, { auth: true })
    expect(later).toHaveBeenCalledTimes(1)

    vi.stubGlobal('fetch', vi.fn(async () => new Response('{}')))
    startEarlyRequests()
    signIn(undefined, 'token-b')
    vi.stubGlobal('fetch', later)
    await apiRequest(`/v1/accounts/${ACCOUNT}/members`, { auth: true })
    expect(later).toHaveBeenCalledTimes(2)
    expect((later.mock.calls[1] as unknown[])[1]).toMatchObject({ headers: { Authorization: 'Bearer token-b' } })
  })

  it('never uses an early answer for a change, or one older than the first screen', async () => {
    signIn()
    window.history.replaceState(null, '', `/dashboard/${ACCOUNT}`)
    vi.stubGlobal('fetch', vi.fn(async () => new Response('{}')))
    startEarlyRequests()
    const later = vi.fn(async () => new Response('{}'))
    vi.stubGlobal('fetch', later)
    await apiRequest(`/v1/accounts/${ACCOUNT}`, { method: 'PATCH', auth: true, body: { name: 'x' } })
    expect(later).toHaveBeenCalledTimes(1)

    const now = performance.now()
    vi.spyOn(performance, 'now').mockReturnValue(now + EARLY_MAX_AGE_MS + 1)
    expect(takeEarlyResponse(`/v1/accounts/${ACCOUNT}`, TOKEN)).toBeNull()
    vi.restoreAllMocks()
  })
})
