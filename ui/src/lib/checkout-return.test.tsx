import type { ReactNode } from 'react'
import { renderHook } from '@testing-library/react'
import { QueryClientProvider } from '@tanstack/react-query'
import { afterEach, describe, expect, it } from 'vitest'
import { pendingPlanCheckout, rememberPlanCheckout, useCheckoutReturn } from './checkout-return'
import { createQueryClient } from './query-client'

afterEach(() => sessionStorage.clear())

const wrapper = ({ children }: { children: ReactNode }) => (
  <QueryClientProvider client={createQueryClient()}>{children}</QueryClientProvider>
)

describe('back from a plan checkout', () => {
  it('welcomes once the plan is active, and forgets the note', () => {
    rememberPlanCheckout('a')
    const { result, rerender } = renderHook(({ active }) => useCheckoutReturn('a', active), {
      wrapper,
      initialProps: { active: false },
    })
    expect(result.current).toBe(false)
    rerender({ active: true })
    expect(result.current).toBe(true)
    expect(pendingPlanCheckout('a')).toBe(false)
  })

  it("the provider's ?checkout=success is enough (another tab started it)", () => {
    const { result } = renderHook(() => useCheckoutReturn('a', true, 'success'), { wrapper })
    expect(result.current).toBe(true)
  })

  it('a cancelled checkout forgets the note and welcomes nobody', () => {
    rememberPlanCheckout('a')
    const { result } = renderHook(() => useCheckoutReturn('a', true, 'cancelled'), { wrapper })
    expect(result.current).toBe(false)
    expect(pendingPlanCheckout('a')).toBe(false)
  })

  it('an old note (an abandoned checkout) is forgotten', () => {
    rememberPlanCheckout('a', Date.now() - 7 * 60 * 60 * 1000)
    expect(pendingPlanCheckout('a')).toBe(false)
  })

  it('a plain visit welcomes nobody', () => {
    const { result } = renderHook(() => useCheckoutReturn('a', true), { wrapper })
    expect(result.current).toBe(false)
  })
})
