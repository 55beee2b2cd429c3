import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { checkoutSchema } from '@/lib/api/pay-invoice'
import type { PaidPlan } from '@/lib/constants'
import { goToCheckout } from '@/lib/api/go-to-checkout'
import { queryKeys } from '@/lib/query-keys'
import type { PlanOrder } from './create-subscription'

// PATCH /v1/accounts/{id}/subscription {plan, promotion_code?} → 201 {checkout_href}: an upgrade,
// charged pro rata on the checkout.

export function updateSubscription(accountId: string, plan: PaidPlan, promotionCode?: string) {
  return apiRequest(`/v1/accounts/${encodeURIComponent(accountId)}/subscription`, {
    method: 'PATCH',
    auth: true,
    body: promotionCode ? { plan, promotion_code: promotionCode } : { plan },
    schema: checkoutSchema,
  })
}

export function useUpgradeSubscription(accountId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async ({ plan, promotionCode }: PlanOrder) => {
      const { checkout_href } = await updateSubscription(accountId, plan, promotionCode)
      await goToCheckout(queryClient, accountId, checkout_href)
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.account(accountId) }),
    // A plan smaller than the team (409 seat_limit) is said on that plan's card, a refused
    // promotion code (422 fields.promotion_code, 429) beside its field.
    meta: { shownInlineCodes: ['seat_limit'], shownInlineFields: ['promotion_code'] },
  })
}
