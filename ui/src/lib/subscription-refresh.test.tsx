import type { ReactNode } from 'react'
import { renderHook } from '@testing-library/react'
import { QueryClientProvider } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import * as v from 'valibot'
import { subscriptionSchema } from './api/get-account'
import { accountBody } from '@/test/mock-api'
import { createQueryClient } from './query-client'
import { queryKeys } from './query-keys'
import { useRefreshWhenPaid } from './subscription-refresh'

const subscription = (fields: Record<string, unknown>) =>
  v.parse(subscriptionSchema, accountBody({ plan: 'TEAM', plan_renewal_at: '2027-03-12T10:00:00Z', ...fields }).account.subscription)

function setUp(account = 'a') {
  const client = createQueryClient()
  client.setQueryData(queryKeys.members(account), { members: [], seats: { used: 1, limit: 10 } })
  client.setQueryData(queryKeys.billing(account), { invoices: [] })
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>
  const stale = (key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated
  return { wrapper, stale }
}

describe('the data a payment changes', () => {
  it('is re-read when seats bought while the page was open are paid', () => {
    const { wrapper, stale } = setUp()
    const { rerender } = renderHook(({ sub }) => useRefreshWhenPaid('a', sub), {
      wrapper,
      initialProps: { sub: subscription({ show_status: 'processing', extra_seats: 0 }) },
    })
    expect(stale(queryKeys.members('a'))).toBe(false)
    rerender({ sub: subscription({ show_status: 'active', extra_seats: 2 }) })
    expect(stale(queryKeys.members('a'))).toBe(true)
    expect(stale(queryKeys.billing('a'))).toBe(true)
  })

  it('is left alone while nothing paid for changes (a re-read of the same account)', () => {
    const { wrapper, stale } = setUp()
    const { rerender } = renderHook(({ sub }) => useRefreshWhenPaid('a', sub), {
      wrapper,
      initialProps: { sub: subscription({ extra_seats: 2 }) },
    })
    rerender({ sub: subscription({ extra_seats: 2, trials_left: 1 }) })
    expect(stale(queryKeys.members('a'))).toBe(false)
    expect(stale(queryKeys.billing('a'))).toBe(false)
  })

  it('is re-read when the payment settled between two pages: the tab remembers what the last page saw', () => {
    const first = setUp('r')
    const left = renderHook(({ sub }) => useRefreshWhenPaid('r', sub), {
      wrapper: first.wrapper,
      initialProps: { sub: subscription({ show_status: 'processing', extra_seats: 0 }) },
    })
    left.unmount() // a full page load: the next page starts with fresh data
    const next = setUp('r')
    renderHook(({ sub }) => useRefreshWhenPaid('r', sub), {
      wrapper: next.wrapper,
      initialProps: { sub: subscription({ show_status: 'active', extra_seats: 2 }) },
    })
    expect(next.stale(queryKeys.members('r'))).toBe(true)
    expect(next.stale(queryKeys.billing('r'))).toBe(true)
  })

  it('is left alone on a new page when nothing paid for changed since the last', () => {
    const first = setUp('s')
    renderHook(() => useRefreshWhenPaid('s', subscription({ extra_seats: 2 })), { wrapper: first.wrapper }).unmount()
    const next = setUp('s')
    renderHook(() => useRefreshWhenPaid('s', subscription({ extra_seats: 2 })), { wrapper: next.wrapper })
    expect(next.stale(queryKeys.members('s'))).toBe(false)
  })
})
