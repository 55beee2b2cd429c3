import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { goToCheckout } from '@/lib/api/go-to-checkout'
import { checkoutSchema } from '@/lib/api/pay-invoice'

// POST /v1/accounts/{id}/billing/payment-methods → 201 {checkout_href}: the
// provider verifies the new method (the sandbox with a 0.01 charge refunded
// at once, Stripe with the bank during the setup).
// 429 (with Retry-After) beyond 5 an hour or 20 a day per account.

export function addPaymentMethod(accountId: string) {
  return apiRequest(`/v1/accounts/${encodeURIComponent(accountId)}/billing/payment-methods`, {
    method: 'POST',
    auth: true,
    schema: checkoutSchema,
  })
}

export function useAddPaymentMethod(accountId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async () => {
      const { checkout_href } = await addPaymentMethod(accountId)
      await goToCheckout(queryClient, accountId, checkout_href, { forPlan: false })
    },
    // 429: an account opens at most 5 of these checkouts an hour, 20 a day;
    // the dialog says when to try again.
    meta: { shownInline: [429] },
  })
}
