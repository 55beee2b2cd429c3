import { useEffect, useRef, useState } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import * as v from 'valibot'
import { useCancelCheckout } from './api/cancel-checkout'
import { reportError } from './error-store'
import { queryKeys } from './query-keys'

// Money moving is confirmed (SPEC §9 keeps the 2.5 s poll while processing):
// before the browser leaves for a plan's checkout we note it in
// sessionStorage; the page the provider sends the customer back to checks
// the account at once and whenever the window regains focus, and once the
// plan is active it says so ("Welcome to Pro") instead of landing silently.

const KEY = (accountId: string) => `checkout_${accountId}`
/** A note older than this is from an abandoned checkout: forget it. */
const MAX_AGE_MS = 6 * 60 * 60 * 1000

export function rememberPlanCheckout(accountId: string, now = Date.now()): void {
  sessionStorage.setItem(KEY(accountId), String(now))
}

/** Whether a plan checkout was started from this tab lately. */
export function pendingPlanCheckout(accountId: string, now = Date.now()): boolean {
  const at = Number(sessionStorage.getItem(KEY(accountId)))
  if (!at || now - at > MAX_AGE_MS) {
    sessionStorage.removeItem(KEY(accountId))
    return false
  }
  return true
}

export function forgetPlanCheckout(accountId: string): void {
  sessionStorage.removeItem(KEY(accountId))
}

/** How the provider says the checkout ended, in the return link (?checkout=…). */
export type CheckoutOutcome = 'success' | 'cancelled' | 'failed' | undefined

/**
 * The search of a page a checkout returns to: the provider sends the customer back with
 * ?checkout=success or ?checkout=cancelled (the sandbox also with ?checkout=failed for a
 * card declined at checkout).
 */
export const checkoutReturnSearch = v.object({
  checkout: v.fallback(v.optional(v.picklist(['success', 'cancelled', 'failed'])), undefined),
})

/**
 * Back from the provider's checkout without paying (?checkout=cancelled or
 * failed): the open checkout is ended at once (with Stripe the session would
 * otherwise stay open, and the dashboard processing, until it expires), and a
 * declined payment raises the failure popup. Once per visit.
 */
export function useCheckoutEnded(accountId: string, checkout?: CheckoutOutcome) {
  const cancel = useCancelCheckout(accountId)
  const done = useRef(false)
  useEffect(() => {
    if (done.current || (checkout !== 'cancelled' && checkout !== 'failed')) return
    done.current = true
    // The popup comes after the cancel: a mutation's success clears popups.
    cancel.mutate(undefined, {
      onSettled: () => {
        if (checkout === 'failed') reportError({ status: 402, message: 'payment failed' })
      },
    })
  }, [checkout, cancel])
}

/**
 * On the page a checkout returns to: while a plan checkout is pending (noted
 * here, or the provider's ?checkout=success), the account is re-read at once,
 * when the page comes back from the browser's cache and on window focus.
 * Returns whether to welcome the customer once `paidAndActive` holds (the
 * note is then forgotten, the welcome stays). A cancelled or failed checkout
 * forgets it.
 */
export function useCheckoutReturn(accountId: string, paidAndActive: boolean, outcome?: CheckoutOutcome): boolean {
  const queryClient = useQueryClient()
  // Read once: the note is forgotten as soon as the plan is active, the welcome stays for this visit.
  const [pending] = useState(() => {
    if (outcome === 'cancelled' || outcome === 'failed') {
      forgetPlanCheckout(accountId)
      return false
    }
    return pendingPlanCheckout(accountId) || outcome === 'success'
  })
  const welcome = pending && paidAndActive

  useEffect(() => {
    if (!pending) return
    const check = () => void queryClient.invalidateQueries({ queryKey: queryKeys.account(accountId) })
    check()
    window.addEventListener('focus', check)
    window.addEventListener('pageshow', check)
    return () => {
      window.removeEventListener('focus', check)
      window.removeEventListener('pageshow', check)
    }
  }, [pending, accountId, queryClient])

  useEffect(() => {
    if (welcome) forgetPlanCheckout(accountId)
  }, [welcome, accountId])

  return welcome
}
