import * as v from 'valibot'
import { apiRequest } from '@/lib/api-client'

// POST /v1/accounts/{id}/invoices/{invoiceId}/payment → 201 {checkout_href}.
// Used to continue an expired plan (plans page) and to pay a due invoice (billing).

export const checkoutSchema = v.object({ checkout_href: v.pipe(v.string(), v.nonEmpty()) })

export function payInvoice(accountId: string, invoiceId: string): Promise<v.InferOutput<typeof checkoutSchema>> {
  return apiRequest(
    `/v1/accounts/${encodeURIComponent(accountId)}/invoices/${encodeURIComponent(invoiceId)}/payment`,
    { method: 'POST', auth: true, schema: checkoutSchema },
  )
}
