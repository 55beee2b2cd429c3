import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest, isApiError } from '@/lib/api-client'
import { checkoutSchema } from '@/lib/api/pay-invoice'
import type { PaidPlan } from '@/lib/constants'
import { goToCheckout } from '@/lib/api/go-to-checkout'
import { queryKeys } from '@/lib/query-keys'

// POST /v1/accounts/{id}/subscription {plan, promotion_code?} → 201 {checkout_href}. Without a
// billing address the api answers 422 with fields.account_billing_address: the
// page then asks for the billing details (the SPEC's internal code 423).

export function createSubscription(accountId: string, plan: PaidPlan, promotionCode?: string) {
  return apiRequest(`/v1/accounts/${encodeURIComponent(accountId)}/subscription`, {
    method: 'POST',
    auth: true,
    body: promotionCode ? { plan, promotion_code: promotionCode } : { plan },
    schema: checkoutSchema,
  })
}

/** 422 whose fields name account_billing_address: the account has no billing address yet. */
export function isBillingAddressRequired(error: unknown): boolean {
  return isApiError(error) && error.status === 422 && 'account_billing_address' in error.fields
}

export type StartPlanOutcome = 'checkout' | 'billing_address_required'

/** A plan to buy, with the promotion code entered on the plans page (if any). */
export interface PlanOrder {
  plan: PaidPlan
  promotionCode?: string
}

/**
 * Starts a plan and follows the checkout link. A missing billing address is an
 * outcome, not an error, so it does not raise the error popup.
 */
export function useCreateSubscription(accountId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async ({ plan, promotionCode }: PlanOrder): Promise<StartPlanOutcome> => {
      let href: string
      try {
        href = (await createSubscription(accountId, plan, promotionCode)).checkout_href
      } catch (error) {
        if (isBillingAddressRequired(error)) return 'billing_address_required'
        throw error
      }
      await goToCheckout(queryClient, accountId, href)
      return 'checkout'
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.account(accountId) }),
    // A plan smaller than the team (409 seat_limit) is said on that plan's card, a refused
    // promotion code (422 fields.promotion_code, 429) beside its field.
    meta: { shownInlineCodes: ['seat_limit'], shownInlineFields: ['promotion_code'] },
  })
}
