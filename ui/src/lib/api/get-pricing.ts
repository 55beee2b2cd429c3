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
  /** The promotion code asked about (issue 38): what it takes off, for how long, on which plans (all when empty). */
  promotion: v.optional(
    v.object({
      code: v.string(),
      percent_off: v.optional(amount),
      amount_off: v.optional(amount),
      duration: v.picklist(['once', 'forever', 'years']),
      duration_years: v.optional(amount),
      plans: v.array(v.picklist(['STARTER', 'PRO', 'TEAM'])),
    }),
  ),
})

export type Pricing = v.InferOutput<typeof pricingSchema>

export type PromotionTerms = NonNullable<Pricing['promotion']>

/** The prices, less the discount of promotionCode when one is given (422 fields.promotion_code when it cannot be used). */
export function getPricing(accountId: string, signal?: AbortSignal, promotionCode?: string): Promise<Pricing> {
  const query = promotionCode ? `?promotion_code=${encodeURIComponent(promotionCode)}` : ''
  return apiRequest(`/v1/pricing/${encodeURIComponent(accountId)}${query}`, { auth: true, signal, schema: pricingSchema })
}

/** The prices with a promotion code's discount (under the pricing key: invalidating the prices drops them too). */
export function promotionPricingQueryOptions(accountId: string, promotionCode: string) {
  return queryOptions({
    queryKey: [...queryKeys.pricing(accountId), 'promotion', promotionCode] as const,
    queryFn: ({ signal }) => getPricing(accountId, signal, promotionCode),
    staleTime: 5 * 60_000,
    retry: false,
  })
}

export function pricingQueryOptions(accountId: string) {
  return queryOptions({
    queryKey: queryKeys.pricing(accountId),
    queryFn: ({ signal }) => getPricing(accountId, signal),
    staleTime: 5 * 60_000,
  })
}
