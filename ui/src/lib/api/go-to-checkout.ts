import type { QueryClient } from '@tanstack/react-query'
import { pricingQueryOptions } from '@/lib/api/get-pricing'
import { followCheckout } from '@/lib/checkout'
import { rememberPlanCheckout } from '@/lib/checkout-return'

// Shared by every checkout redirect (plans, billing): the pricing call names the
// only origin a checkout link may start with.

/**
 * Follows a checkout link after checking it against the pricing call's
 * checkout_origin. `forPlan`: the checkout pays for a plan (start, upgrade,
 * continue, a due invoice), so the page the customer comes back to confirms it.
 */
export async function goToCheckout(
  queryClient: QueryClient,
  accountId: string,
  href: string,
  { forPlan = true }: { forPlan?: boolean } = {},
): Promise<void> {
  const pricing = await queryClient.ensureQueryData(pricingQueryOptions(accountId))
  followCheckout(href, pricing.checkout_origin)
  if (forPlan) rememberPlanCheckout(accountId)
}
