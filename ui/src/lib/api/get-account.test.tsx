import { renderHook } from '@testing-library/react'
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { accountBody, json, mockApi } from '@/test/mock-api'
import { POLL_MS } from '@/lib/constants'
import { accountQueryOptions, logoState } from './get-account'

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
