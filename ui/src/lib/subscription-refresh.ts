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

/** Where the tab keeps, per account, what the last page saw (paidFor). */
const SEEN_KEY = 'kudos.paid-for.'

function remembered(accountId: string): string | null {
  try {
    return sessionStorage.getItem(SEEN_KEY + accountId)
  } catch {
    return null // storage refused (a private window's quota): only this page's changes count
  }
}

function remember(accountId: string, key: string): void {
  try {
    sessionStorage.setItem(SEEN_KEY + accountId, key)
  } catch {
    // as above
  }
}

/**
 * Keeps the data a payment changes in step with the subscription. The
 * account is re-read while a payment is processing (SPEC §4); when it
 * shows the payment settled (seats bought, a plan upgraded, a renewal) the
 * team's seats and the billing page's invoices are re-read too, so a page
 * opened while the payment was processing never keeps the old figures.
 * What the last page saw is remembered for the tab: a page loaded anew
 * reads the account and the team at once, and when the payment settled
 * between those two reads the team's figures would be the old ones with
 * nothing left to change; the difference from the last page tells.
 */
export function useRefreshWhenPaid(accountId: string, subscription: Subscription): void {
  const queryClient = useQueryClient()
  const key = paidFor(subscription)
  const seen = useRef<{ accountId: string; key: string } | null>(null)
  useEffect(() => {
    const before = seen.current?.accountId === accountId ? seen.current.key : remembered(accountId)
    seen.current = { accountId, key }
    remember(accountId, key)
    if (before === null || before === key) return
    void queryClient.invalidateQueries({ queryKey: queryKeys.team(accountId) })
    void queryClient.invalidateQueries({ queryKey: queryKeys.billing(accountId) })
  }, [key, accountId, queryClient])
}
