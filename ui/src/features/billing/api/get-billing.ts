import * as v from 'valibot'
import { queryOptions } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'

// GET /v1/accounts/{id}/billing: invoices (newest first), payment methods
// (mandates), their count and the billing address (SPEC §3). The billing
// routes' loaders fetch it (loaders are code-split, see vite.config.ts).

const text = v.optional(v.nullable(v.string()), '')

export const INVOICE_STATUSES = ['PAID', 'PROCESSING', 'DUE_PAYMENT', 'CREDITED'] as const
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number]

const invoiceSchema = v.object({
  id: v.string(),
  /** The number, e.g. KUD-2026-000123 (a credit note KUD-CN-2026-000001); empty while PROCESSING. */
  invoice_url: text,
  created_at: v.string(),
  description: text,
  /** Major units, VAT included. */
  amount: v.number(),
  currency: text,
  status: v.picklist(INVOICE_STATUSES),
  /** An invoice, or a credit note (negative amount, CREDITED) of a refund. */
  kind: v.optional(v.picklist(['invoice', 'credit_note']), 'invoice'),
  /** Credit notes only: the id of the invoice it corrects. */
  corrects: v.optional(v.nullable(v.string()), null),
})

export const VAT_ID_STATUSES = ['none', 'pending', 'verified', 'invalid'] as const
export type VatIdStatus = (typeof VAT_ID_STATUSES)[number]

const mandateSchema = v.object({
  id: v.string(),
  method: v.string(),
  details: v.optional(
    v.object({
      cardNumber: text,
      cardExpiryDate: text,
      cardLabel: text,
      consumerAccount: text,
    }),
    {},
  ),
})

const billingAddressSchema = v.object({
  organization_name: text,
  street_and_number: text,
  street_additional: text,
  postal_code: text,
  city: text,
  region: text,
  country: text,
  vat_id: text,
  /** How far vat_id was checked against VIES; pending while a workflow asks again. */
  vat_id_status: v.optional(v.picklist(VAT_ID_STATUSES), 'none'),
  version: v.optional(v.number()),
})

/** A JSON list, checked item by item; null or absent is an empty list. */
function listOf<T extends v.GenericSchema>(item: T) {
  return v.optional(v.nullable(v.array(item)), null)
}

const billingResponseSchema = v.object({
  invoices: listOf(invoiceSchema),
  mandates: listOf(mandateSchema),
  mandate_count: v.optional(v.number(), 0),
  account_billing_address: v.optional(v.nullable(billingAddressSchema), null),
})

export type Invoice = v.InferOutput<typeof invoiceSchema>
export type Mandate = v.InferOutput<typeof mandateSchema>
export type LoadedBillingAddress = v.InferOutput<typeof billingAddressSchema>

export interface Billing {
  /** Newest first, as the api sends them. */
  invoices: Invoice[]
  mandates: Mandate[]
  mandate_count: number
  account_billing_address: LoadedBillingAddress | null
}

export async function getBilling(accountId: string, signal?: AbortSignal): Promise<Billing> {
  const body = await apiRequest(`/v1/accounts/${encodeURIComponent(accountId)}/billing`, {
    auth: true,
    signal,
    schema: billingResponseSchema,
  })
  return {
    invoices: body.invoices ?? [],
    mandates: body.mandates ?? [],
    mandate_count: body.mandate_count,
    account_billing_address: body.account_billing_address,
  }
}

export function billingQueryOptions(accountId: string) {
  return queryOptions({
    queryKey: queryKeys.billing(accountId),
    queryFn: ({ signal }) => getBilling(accountId, signal),
  })
}
