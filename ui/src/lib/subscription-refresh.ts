import { useEffect, useRef } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import type { Subscription } from './api/get-account'
import { queryKeys } from './query-keys'

/**
 * What a settled payment changes on the subscription: the plan, the extra
 * seats, the period and whether money is still moving.
 */
export function paidFor(subscription: Subscription): string {
  return [subscription.plan, subscription.extra_seats, subscription.plan_renewal_at ?? '', subscription.show_status].join('|')
}

/**
 * Keeps the data a payment changes in step with the subscription. The
 * account is re-read while a payment is processing (SPEC §4); when it
 * shows the payment settled (seats bought, a plan upgraded, a renewal) the
 * team's seats and the billing page's invoices are re-read too, so a page
 * opened while the payment was processing never keeps the old figures.
 */
export function useRefreshWhenPaid(accountId: string, subscription: Subscription): void {
  const queryClient = useQueryClient()
  const key = paidFor(subscription)
  const seen = useRef(key)
  useEffect(() => {
    if (seen.current === key) return
    seen.current = key
    void queryClient.invalidateQueries({ queryKey: queryKeys.team(accountId) })
    void queryClient.invalidateQueries({ queryKey: queryKeys.billing(accountId) })
  }, [key, accountId, queryClient])
}
