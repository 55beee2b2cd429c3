import * as v from 'valibot'
import { queryOptions } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'

// GET /v1/pricing/{accountId}: yearly net prices in major units, the currency,
// the VAT rate (percent) and the only origin a checkout link may start with.
// Shared: the plans page shows it, every checkout redirect checks its origin.

// Plain numbers: valibot's union/transform would land in the chunk /signin loads.
const amount = v.number()

export const pricingSchema = v.object({
  pricing_table: v.object({
    starter_pricing: amount,
    pro_pricing: amount,
    team_pricing: amount,
  }),
  currency: v.string(),
  vat_rate: amount,
  /** A verified VAT id of another EU member state: VAT 0 %, reverse charged. */
  reverse_charge: v.optional(v.boolean(), false),
  /** The rule vat_rate comes from: outside the EU a business pays none (art. 44), a consumer none where we are not registered (art. 58). */
  vat_treatment: v.optional(v.picklist(['standard', 'reverse_charge', 'outside_eu_business', 'outside_eu_consumer']), 'standard'),
  checkout_origin: v.string(),
})

export type Pricing = v.InferOutput<typeof pricingSchema>

export function getPricing(accountId: string, signal?: AbortSignal): Promise<Pricing> {
  return apiRequest(`/v1/pricing/${encodeURIComponent(accountId)}`, { auth: true, signal, schema: pricingSchema })
}

export function pricingQueryOptions(accountId: string) {
  return queryOptions({
    queryKey: queryKeys.pricing(accountId),
    queryFn: ({ signal }) => getPricing(accountId, signal),
    staleTime: 5 * 60_000,
  })
}
