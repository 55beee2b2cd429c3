import * as v from 'valibot'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { payInvoice } from '@/lib/api/pay-invoice'
import { goToCheckout } from '@/lib/api/go-to-checkout'
import { queryKeys } from '@/lib/query-keys'

// GET /v1/accounts/{id}/invoices/latest-unpaid → 200 {invoice_id} or 404. An
// expired plan continues by paying that invoice (POST …/payment → checkout).

const latestUnpaidSchema = v.object({ invoice_id: v.pipe(v.string(), v.nonEmpty()) })

export function getLatestUnpaidInvoice(accountId: string) {
  return apiRequest(`/v1/accounts/${encodeURIComponent(accountId)}/invoices/latest-unpaid`, {
    auth: true,
    schema: latestUnpaidSchema,
  })
}

export function usePayLatestUnpaidInvoice(accountId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async () => {
      const { invoice_id } = await getLatestUnpaidInvoice(accountId)
      const { checkout_href } = await payInvoice(accountId, invoice_id)
      await goToCheckout(queryClient, accountId, checkout_href)
    },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.account(accountId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.billing(accountId) }),
      ]),
    // A plan smaller than the team (409 seat_limit) is said on that plan's card.
    meta: { shownInlineCodes: ['seat_limit'] },
  })
}
