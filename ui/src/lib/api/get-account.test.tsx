import { renderHook } from '@testing-library/react'
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import * as v from 'valibot'
import { accountBody, dunningSubscription, json, mockApi } from '@/test/mock-api'
import { DUNNING_POLL_MS, POLL_MS } from '@/lib/constants'
import { accountQueryOptions, accountResponseSchema, logoState } from './get-account'

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

describe('accountQueryOptions while a payment is processing (SPEC §4)', () => {
  it('re-fetches every 2.5 s until show_status changes', async () => {
    vi.useFakeTimers()
    const statuses = ['processing', 'processing', 'active']
    const fetch = mockApi({
      'GET /v1/accounts/a': () => json(200, accountBody({ plan: 'PRO', show_status: statuses.shift() ?? 'active' })),
    })
    const client = new QueryClient()
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>
    const { result } = renderHook(() => useQuery(accountQueryOptions('a')), { wrapper })

    await vi.advanceTimersByTimeAsync(0)
    expect(result.current.data?.account.subscription.show_status).toBe('processing')
    expect(fetch).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(POLL_MS - 100)
    expect(fetch).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(100)
    expect(fetch).toHaveBeenCalledTimes(2)
    await vi.advanceTimersByTimeAsync(POLL_MS)
    expect(fetch).toHaveBeenCalledTimes(3)
    await vi.waitFor(() => expect(result.current.data?.account.subscription.show_status).toBe('active'))
    await vi.advanceTimersByTimeAsync(POLL_MS * 4)
    expect(fetch).toHaveBeenCalledTimes(3)
    expect(POLL_MS).toBe(2500)
    client.clear()
  })
})

describe('accountQueryOptions while the logo is processing (SPEC §4)', () => {
  it('re-fetches every 2.5 s while img_url is temporary', async () => {
    vi.useFakeTimers()
    const imgUrls = ['tmp/logos/a/1.png', 'tmp/logos/a/1.png', 'public/logos/a/1.png']
    const fetch = mockApi({
      'GET /v1/accounts/a': () => {
        const body = accountBody({ plan: 'PRO' })
        return json(200, { ...body, account: { ...body.account, img_url: imgUrls.shift() ?? 'public/logos/a/1.png' } })
      },
    })
    const client = new QueryClient()
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>
    const { result } = renderHook(() => useQuery(accountQueryOptions('a')), { wrapper })

    await vi.advanceTimersByTimeAsync(0)
    expect(result.current.data?.account.img_url).toBe('tmp/logos/a/1.png')
    await vi.advanceTimersByTimeAsync(POLL_MS)
    expect(fetch).toHaveBeenCalledTimes(2)
    await vi.advanceTimersByTimeAsync(POLL_MS)
    expect(fetch).toHaveBeenCalledTimes(3)
    await vi.waitFor(() => expect(result.current.data?.account.img_url).toBe('public/logos/a/1.png'))
    await vi.advanceTimersByTimeAsync(POLL_MS * 4)
    expect(fetch).toHaveBeenCalledTimes(3)
    client.clear()
  })
})

describe('accountQueryOptions while a failed renewal is retried', () => {
  it('re-fetches every 10 s until the payment is made, then stops', async () => {
    vi.useFakeTimers()
    const retrying = [true, true, false]
    const fetch = mockApi({
      'GET /v1/accounts/a': () => {
        const body = accountBody({ plan: 'PRO' })
        const sub = retrying.shift() ? dunningSubscription : { ...dunningSubscription, payment_retry_at: null, failed_payment: null }
        return json(200, { ...body, account: { ...body.account, subscription: { ...body.account.subscription, ...sub } } })
      },
    })
    const client = new QueryClient()
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>
    const { result } = renderHook(() => useQuery(accountQueryOptions('a')), { wrapper })

    await vi.advanceTimersByTimeAsync(0)
    expect(result.current.data?.account.subscription.payment_retry_at).toBe(dunningSubscription.payment_retry_at)
    await vi.advanceTimersByTimeAsync(DUNNING_POLL_MS - 100)
    expect(fetch).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(100)
    expect(fetch).toHaveBeenCalledTimes(2)
    await vi.advanceTimersByTimeAsync(DUNNING_POLL_MS)
    expect(fetch).toHaveBeenCalledTimes(3)
    await vi.waitFor(() => expect(result.current.data?.account.subscription.payment_retry_at).toBeNull())
    await vi.advanceTimersByTimeAsync(DUNNING_POLL_MS * 4)
    expect(fetch).toHaveBeenCalledTimes(3)
    client.clear()
  })
})

describe('logoState: the img_url prefixes (SPEC §3)', () => {
  it.each([
    ['tmp/logos/a/1.png', 'temporary'],
    ['public/logos/a/1.png', 'public'],
    ['placeholder:none', 'placeholder'],
    ['BLANK', 'placeholder'],
    ['', 'placeholder'],
    [null, 'placeholder'],
    [undefined, 'placeholder'],
    ['logos/a/1.png', 'placeholder'],
  ])('%j → %s', (imgUrl, state) => expect(logoState(imgUrl)).toBe(state))
})

describe('accountResponseSchema: the dunning fields', () => {
  it('reads payment_retry_at and failed_payment', () => {
    const data = v.parse(accountResponseSchema, accountBody(dunningSubscription))
    expect(data.account.subscription.payment_retry_at).toBe('2027-03-05T12:00:00Z')
    expect(data.account.subscription.failed_payment).toEqual({
      invoice_id: '0b6f4c1e-6d0a-4a53-9b44-4f1e6a0c2d11',
      amount: 217.8,
      currency: 'EUR',
    })
  })

  it('defaults both to null when an older api leaves them out', () => {
    const body = accountBody({ plan: 'PRO' })
    const older: Record<string, unknown> = { ...body.account.subscription }
    delete older.payment_retry_at
    delete older.failed_payment
    const data = v.parse(accountResponseSchema, { ...body, account: { ...body.account, subscription: older } })
    expect(data.account.subscription.payment_retry_at).toBeNull()
    expect(data.account.subscription.failed_payment).toBeNull()
  })
})
