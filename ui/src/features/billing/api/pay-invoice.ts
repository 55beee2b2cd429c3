import { useMutation, useQueryClient } from '@tanstack/react-query'
import { accountKeys } from '@/lib/api/get-account'
import { goToCheckout } from '@/lib/api/go-to-checkout'
import { payInvoice } from '@/lib/api/pay-invoice'
import { billingKeys } from './get-billing'

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
        queryClient.invalidateQueries({ queryKey: billingKeys.detail(accountId) }),
        queryClient.invalidateQueries({ queryKey: accountKeys.detail(accountId) }),
      ]),
  })
}
