import { useMutation, useQueryClient } from '@tanstack/react-query'
import { goToCheckout } from '@/lib/api/go-to-checkout'
import { payInvoice } from '@/lib/api/pay-invoice'
import { queryKeys } from '@/lib/query-keys'

// Pays a DUE_PAYMENT invoice: POST …/invoices/{invoiceId}/payment → 201
// {checkout_href}, followed only when it is on the checkout origin.

export function usePayInvoice(accountId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (invoiceId: string) => {
      const { checkout_href } = await payInvoice(accountId, invoiceId)
      await goToCheckout(queryClient, accountId, checkout_href)
    },
    onError: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.billing(accountId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.account(accountId) }),
      ]),
  })
}
